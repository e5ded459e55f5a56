package lab

import "fmt"

// Rate formats a rate in unit for a line of progress: millions to two
// decimals ("1.23M ids/s"), thousands to kDigits ("45.6k ids/s"), and
// fewer whole ("789 ids/s").
func Rate(v float64, unit string, kDigits int) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM %s", v/1e6, unit)
	case v >= 1e3:
		return fmt.Sprintf("%.*fk %s", kDigits, v/1e3, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}
