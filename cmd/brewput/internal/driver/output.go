package driver

import (
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
