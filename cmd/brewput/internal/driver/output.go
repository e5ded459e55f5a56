package driver

import (
	"fmt"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/results"
)

// finish writes a measurement's points and says how it ended.
func finish(out *outfile.Sink, points []results.Point, runErr error, total int) error {
	if err := out.Finish(points, runErr == nil); err != nil {
		return failure{Err: err}
	}
	return exitcode.Measured(runErr, len(points), total)
}

// resultsOut checks --out FILE of a command that writes what it measured
// as a results file when it ends (JSON Lines), and holds it; nil for "".
func (e *env) resultsOut(path, command string) (*outfile.Output, error) {
	if path == "" {
		return nil, nil
	}
	o, err := outfile.Create(path, results.JSON, results.Plan{Command: command})
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", path, err)
	}
	return o, e.hold(path)
}
