//go:build replica

// The replica's runtime functions (replica.go) are linked by name, which
// needs a file of assembly beside them; this one is empty.
