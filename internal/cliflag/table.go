package cliflag

import (
	"fmt"

	"github.com/spf13/pflag"
)

// Table registers --format on fs, the table a command prints: compact
// (usage says what that holds) or table, every point in full. The function
// it returns reports whether the full table was asked, or says what
// --format accepts.
func Table(fs *pflag.FlagSet, compact string) func() (bool, error) {
	f := fs.String("format", "compact", "the table printed: compact ("+compact+") or table (every point in full)")
	return func() (bool, error) {
		switch *f {
		case "compact":
			return false, nil
		case "table":
			return true, nil
		}
		return false, fmt.Errorf("--format %q: want compact or table", *f)
	}
}
