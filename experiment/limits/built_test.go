package limits

import (
	"testing"

	"github.com/brewput/brewput/coffee"
)

// Every family's shop is built of something, as its shape declares, so
// that a change of design to or from it costs what it adds.
func TestEveryFamilyBuilt(t *testing.T) {
	for _, f := range coffee.Families() {
		m := coffee.Mode{Family: f.Name}
		if f.Param() != "" {
			m.N = 2
		}
		c := built(m, 4)
		if (c.Machines == 0) != (f.Shape.Holds == coffee.NoShop) {
			t.Errorf("%s is built of %+v", m, c)
		}
	}
}
