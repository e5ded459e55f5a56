//go:build !js

// NeedFiles is for cobra commands, which the playground's js build has
// none of: tagged out, cobra stays out of its module.

package cliflag

import (
	"fmt"

	"github.com/spf13/cobra"
)

// NeedFiles is the Args of a command, named what, that reads results
// files: it wants at least one, such as example.
func NeedFiles(what, example string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return fmt.Errorf("%s needs at least one results file, such as %s", what, example)
		}
		return nil
	}
}
