package text

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// ModelSetting says the model and where its costs came from.
func TestModelSetting(t *testing.T) {
	if got := ModelSetting(results.Policy{Sched: "fifo"}, 0, 0, 0, "ignored", "vm", ""); got != "the model, fifo policy (idealized CPUs: no calibration)" {
		t.Errorf("fifo: %q", got)
	}
	busy := results.Policy{Sched: "go", Background: results.Background{CPUs: 1.5, Burst: 2 * time.Millisecond}}
	got := ModelSetting(busy, 132*time.Microsecond, 0, 0, "calibration c.json", "for vm's runtime costs", "")
	if !strings.HasPrefix(got, "the model, go policy, calibration c.json, for vm's runtime costs: this machine wakes a sleeping goroutine in about 132 µs, ") ||
		!strings.HasSuffix(got, "; other processes taking 1.5 CPUs in bursts of 2ms") {
		t.Errorf("go: %q", got)
	}
}
