package coffee

// noop makes nothing. Measuring it measures the harness itself.
type noop struct{}

func (noop) Brew() error      { return nil }
func (noop) Meters() []*Meter { return nil }
func (noop) Close()           {}
