// Package morelibs holds benchmarks over libraries that brewput's model
// had not been shaped on, pinned in go.mod, chosen for how they contend
// (one lock, a read lock, sharded locks, a library's own spin lock, a
// word every core writes, pools, channels) and measured on many cores
// before predict was run on them. Each benchmark's doc comment says which
// lock or shared word its library takes, read in the library's source at
// the pinned version. trials_test.go's were tried with predict, why and
// bench --locks on two CPUs first, and wait for a many-core machine.
//
// It is its own module, so that the validation module's go build ./...
// does not include it and its dependencies stay out of validation's
// go.mod.
package morelibs
