package sweep

import "fmt"

// checkProfile refuses: WebAssembly (the playground's engine, which plans
// the model's points and measures none) records no profiles, and record,
// which would, brings runtime/pprof along.
func checkProfile(base string) error {
	return fmt.Errorf("profile base %q: WebAssembly records no profiles", base)
}
