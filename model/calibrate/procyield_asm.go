//go:build amd64 || arm64

package calibrate

// procyield30 is one spin of a Lock that finds its mutex held: the
// runtime's procyield(30), in this package's assembly.
func procyield30()
