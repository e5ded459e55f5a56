package cliflag

import (
	"os"
	"path/filepath"
	"strings"
)

// PackageHint adds to msg, the go command's error about a package
// pattern, "did you mean ./PATTERN" where the pattern is a folder under
// dir written without "./", which the go command reads as an import path.
func PackageHint(dir, pattern, msg string) string {
	if !strings.Contains(msg, "is not in std") || strings.HasPrefix(pattern, ".") || filepath.IsAbs(pattern) {
		return msg
	}
	if fi, err := os.Stat(filepath.Join(dir, strings.TrimSuffix(pattern, "/..."))); err != nil || !fi.IsDir() {
		return msg
	}
	return msg + "; did you mean ./" + pattern + "? (without ./ the go command reads it as an import path)"
}
