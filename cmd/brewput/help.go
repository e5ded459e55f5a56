//go:build !js

package main

import (
	"embed"
	"io/fs"

	"github.com/spf13/cobra"
)

// helpFiles hold the commands' long help and examples: help/NAME.txt and
// help/NAME.example.txt (brewput for the root), help/study/NAME.txt.
//
//go:embed help/*.txt help/study/*.txt
var helpFiles embed.FS

// setHelp gives root and each of its commands their long help and
// examples from helpFiles, where there are some.
func setHelp(root *cobra.Command) {
	for _, cmd := range append([]*cobra.Command{root}, root.Commands()...) {
		if b, err := fs.ReadFile(helpFiles, "help/"+cmd.Name()+".txt"); err == nil {
			cmd.Long = string(b)
		}
		if b, err := fs.ReadFile(helpFiles, "help/"+cmd.Name()+".example.txt"); err == nil {
			cmd.Example = string(b)
		}
	}
}
