//go:build !js

package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print brewput's module version and the Go version it was built with",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(e.stdout, version())
			return err
		},
	}
}

// version says which brewput this is: the module's version ("(devel)"
// with its commit for a build in the repository), the Go version and the
// platform.
func version() string {
	v := "(unknown: built without module information)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		if v == "" {
			v = "(devel)"
		}
		if v == "(devel)" {
			settings := map[string]string{}
			for _, s := range bi.Settings {
				settings[s.Key] = s.Value
			}
			if rev := settings["vcs.revision"]; rev != "" {
				v += " " + rev[:min(12, len(rev))]
				if settings["vcs.modified"] == "true" {
					v += "+dirty"
				}
			}
		}
	}
	return fmt.Sprintf("brewput %s, %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
