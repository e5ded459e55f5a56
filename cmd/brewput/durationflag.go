package main

import (
	"fmt"
	"time"
)

// durationFlag is a time.Duration flag whose parse error says what it
// accepts, so a typo gets one line that names the flag and the form.
type durationFlag time.Duration

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 2s, 500ms or 1.5ms")
	}
	*d = durationFlag(v)
	return nil
}

func (d *durationFlag) String() string    { return time.Duration(*d).String() }
func (d *durationFlag) Type() string      { return "duration" }
func (d durationFlag) get() time.Duration { return time.Duration(d) }
