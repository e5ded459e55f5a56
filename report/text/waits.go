package text

import (
	"fmt"

	"github.com/brewput/brewput/results"
)

// FoldedSites says a wait that sums up a profile's smaller sites: "12
// smaller sites, each under 1.0 % of the total".
func FoldedSites(w results.Wait) string {
	if w.Folded == 1 {
		return fmt.Sprintf("1 smaller site, under %.1f %% of the total", 100*w.Under)
	}
	return fmt.Sprintf("%d smaller sites, each under %.1f %% of the total", w.Folded, 100*w.Under)
}
