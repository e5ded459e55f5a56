package main

import "embed"

// helpFiles hold the commands' long help and examples, a file each:
// help/NAME.txt and help/NAME.example.txt.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help is the text of help/name.txt. Every command reads its own as the
// command tree is built, so that a file missing from the build fails
// every test at once.
func help(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err)
	}
	return string(b)
}
