package limits

import (
	"fmt"
	"slices"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// systemWhatIfs are a YAML system's: one more unit of every resource.
func systemWhatIfs(cfg model.Config, b *blueprint.Blueprint) []whatIf {
	if len(b.Resources) < 2 {
		return nil
	}
	c := *b // a run changes no blueprint, so copies may share their steps
	c.Resources = slices.Clone(b.Resources)
	for j := range c.Resources {
		c.Resources[j].Capacity++
	}
	cfg.System = &c
	return []whatIf{{change: "one more of every resource", as: fmt.Sprintf("%d resources, each +1", len(b.Resources)),
		cost: Cost{Units: len(b.Resources)}, cfg: cfg}}
}
