// Package reallibs holds benchmarks over libraries nobody at brewput wrote,
// pinned in go.mod, on which brewput's your-own-code features are checked:
// bench --locks, predict and why must find the locks these libraries
// really take, and only those that limit. Each benchmark's doc comment
// says which lock its library takes, read in the library's source at the
// pinned version, and what the truth is.
//
// It is its own module inside testdata, so that the main module's
// go build ./... and go test ./... do not include it and its dependencies
// stay out of brewput's go.mod; .ci/run downloads them.
package reallibs
