//go:build !js

package sweep

import "github.com/brewput/brewput/measure/record"

// checkProfile is record.CheckBase: whether base can name a point's
// profiles.
func checkProfile(base string) error { return record.CheckBase(base) }
