package profile

import (
	"fmt"
	"os"

	"github.com/brewput/brewput/internal/atomicfile"
)

// CheckDir tells, before anything is measured, whether dir can take each
// point's trace and profiles: a folder that exists and is writable, or can
// be made. It creates nothing. Its errors name --profile, as the command
// lines that take the folder call it.
func CheckDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("--profile: want a folder for the profiles, such as prof")
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("--profile %s: is a file; want a folder for the profiles", dir)
	}
	if err := atomicfile.CheckDir(dir, "the profiles"); err != nil {
		return fmt.Errorf("--profile %s: %w", dir, err)
	}
	return nil
}
