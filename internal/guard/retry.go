// Package guard runs the tests whose results are real timings — the
// structural lessons of the shop and the labs — so that a busy machine
// neither fails nor passes them: see Retry.
package guard

import (
	"testing"
	"time"

	"github.com/brewput/brewput/internal/quiet"
)

// BusyLimit is how many CPUs' worth of time other processes (and the
// hypervisor) may take during an attempt before the attempt is void: the
// lessons hold on a quiet machine, not beside another test binary or a
// browser on the same two cores.
const BusyLimit = 0.3

// Retry runs check until it passes or three attempts on a quiet machine
// have failed, and then fails t with the last complaint. Before each
// attempt it waits for the machine to be quiet; an attempt during which
// other processes took more than BusyLimit CPUs is void: it is logged and
// neither passes nor fails the test. If the machine never leaves the test
// a quiet attempt within two minutes, the test is skipped and says why: a
// timing measured beside another busy process says nothing either way.
func Retry(t testing.TB, check func() error) {
	t.Helper()
	var err error
	quietFails := 0
	deadline := time.Now().Add(2 * time.Minute)
	for attempt := 1; quietFails < 3; attempt++ {
		if time.Now().After(deadline) {
			if quietFails == 0 {
				t.Skipf("machine too busy to test timing: other processes took more than %.1f CPUs during every attempt", BusyLimit)
			}
			break
		}
		if others := quiet.Probe(200 * time.Millisecond); others > BusyLimit {
			t.Logf("attempt %d: waiting, other processes use %.2f CPUs", attempt, others)
			time.Sleep(time.Second)
			continue
		}
		before := quiet.Take()
		err = check()
		others := quiet.Since(before)
		if err == nil {
			return
		}
		if others > BusyLimit {
			t.Logf("attempt %d (void, other processes took %.2f CPUs): %v", attempt, others, err)
			continue
		}
		quietFails++
		t.Logf("attempt %d (other processes took %.2f CPUs): %v", attempt, others, err)
		time.Sleep(time.Second)
	}
	t.Fatal(err)
}
