//go:build !amd64 && !arm64

package calibrate

// procyield30 stands for one spin of a Lock that finds its mutex held
// where this package has no assembly for the runtime's procyield(30): an
// empty call, so that the model's spins there cost about nothing.
func procyield30() {}
