package blueprint_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// FuzzParse: a YAML file of any shape parses into a blueprint or an
// error, never a panic, and a parsed one's footprint is estimated without
// building it (a billion locks must not be made to be counted), finite.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"resources: {shard: {locks: 1000000000}}\nsteps:\n  - {name: work, duration: 1ms, holds: [shard]}\n",
		"steps:\n  - pipeline:\n      - {name: a, duration: 1ms}\n      - {name: b, duration: 1ms, buffer: 1000000000000}\n",
		"steps:\n  - pipeline:\n      - {name: grind, duration: 1ms, workers: 1000000000}\n",
		"steps:\n  - {name: a, duration: 10s}\n",
		"load: {rate: 1e308}\nsteps:\n  - {name: a, duration: 1ms}\n",
		"a: &a [*a, *a]\nb: &b [*a, *a]\nsteps: [*b]\n",
	} {
		f.Add([]byte(s))
	}
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.yaml"))
	for _, path := range examples {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := blueprint.Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		fp := model.SystemConfig(b, 2).Footprint()
		if math.IsNaN(fp.Bytes) || math.IsNaN(fp.Events) || fp.Bytes < 0 || fp.Events < 0 {
			t.Errorf("footprint %+v of\n%s", fp, data)
		}
	})
}
