//go:build !replica

package main

// haveReplica says this build has the replica: it needs
// go build -tags replica -ldflags=-checklinkname=0.
const haveReplica = false

// replica stands in for the replica's type where it is not built; main
// refuses -replica first, so its methods are never called.
type replica struct{}

func (*replica) Lock(*paths)   { panic("mutexprobe: built without the replica") }
func (*replica) Unlock(*paths) { panic("mutexprobe: built without the replica") }
