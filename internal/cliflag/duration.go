// Package cliflag holds the flag values and argument checks brewput's
// commands, labs and studies share.
package cliflag

import (
	"fmt"
	"time"
)

// Duration is a time.Duration flag whose parse error says what it
// accepts: fs.Var((*cliflag.Duration)(&d), "dur", "…").
type Duration time.Duration

// Set implements pflag.Value.
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 2s, 500ms or 1.5ms")
	}
	*d = Duration(v)
	return nil
}

// String implements pflag.Value.
func (d *Duration) String() string { return time.Duration(*d).String() }

// Type implements pflag.Value.
func (d *Duration) Type() string { return "duration" }
