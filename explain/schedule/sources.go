package schedule

import (
	"fmt"
	"os"
	"strings"

	"github.com/brewput/brewput/internal/atomicfile"
)

// ParseFrom reads what brewput schedule draws, as its --from gives it: the
// model's schedule, a trace's, or both ("model,trace").
func ParseFrom(from string) (fromModel, fromTrace bool, err error) {
	for _, f := range strings.Split(from, ",") {
		switch strings.TrimSpace(f) {
		case "model":
			fromModel = true
		case "trace":
			fromTrace = true
		default:
			return false, false, fmt.Errorf("--from %q: want model, trace or model,trace", from)
		}
	}
	return fromModel, fromTrace, nil
}

// CheckTrace tells, before anything is simulated, whether path is a file
// that ReadTrace can open: there, and not a folder.
func CheckTrace(path string) error {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("trace %s: %w", path, atomicfile.WithoutPath(err))
	case info.IsDir():
		return fmt.Errorf("trace %s is a folder; want an execution trace file, as --profile writes one (*.trace)", path)
	}
	return nil
}
