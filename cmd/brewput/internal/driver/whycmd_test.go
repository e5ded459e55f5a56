package driver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
)

// brewput why measures a point and its reliefs for real: only the shape
// of what it prints and its exit status are checked, never the timings.
func TestWhy(t *testing.T) {
	t.Parallel()
	stdout, stderr := succeeds(t, selfChild(),
		"why", "--mode", "locking", "--cpus", "1", "--count", "2", "--dur", "30ms", "--warmup", "10ms", "--sched", "fifo", "--noisy", "ok")
	// Its answer first: what the real CPUs showed.
	if !strings.HasPrefix(stdout, "locking on 1 CPU, measured 2 times on real CPUs: ") {
		t.Errorf("stdout does not start with its answer:\n%s", stdout)
	}
	for _, want := range []string{"model", "measured", "range (95 %)", "as it is",
		"grinding 10 % faster", "the kitchen lock held for less: combining outside it", "twice the customers (1 → 2)",
		"The model (fifo): The kitchen lock limits it"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "measuring locking as it is and with") {
		t.Errorf("stderr does not say what it measures:\n%s", stderr)
	}

	if race.Enabled {
		// One why under the detector measures what the second would;
		// what the JSON says the plain run checks.
		return
	}
	stdout, _ = succeeds(t, selfChild(),
		"why", "--mode", "finelocking", "--cpus", "1", "--count", "2", "--dur", "20ms", "--warmup", "10ms", "--sched", "fifo", "--noisy", "ok", "--format", "json")
	var s struct {
		System      string
		Bottleneck  struct{ Resource string }
		Experiments []struct {
			Model   results.Experiment
			Skip    string
			Metrics []comparison.Metric
		}
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if s.System != "finelocking on 1 CPU" || s.Bottleneck.Resource == "" || len(s.Experiments) < 8 {
		t.Errorf("json: %+v", s)
	}
	for _, e := range s.Experiments {
		// Latencies are judged where the window finished drinks enough
		// for them, which a busy machine can deny; throughput always.
		if e.Skip != "" {
			continue
		}
		if len(e.Metrics) == 0 || e.Metrics[0].Name != "throughput" {
			t.Errorf("%s: measured, yet metrics %+v", text.ChangeText(e.Model), e.Metrics)
		}
		for _, m := range e.Metrics {
			if m.Old.N == 0 || m.New.N == 0 || m.P < 0 || m.P > 1 {
				t.Errorf("%s: %s was not compared (%s): %+v", text.ChangeText(e.Model), m.Name, text.MetricVerdict(m), m)
			}
		}
	}
}

func TestWhyBadInput(t *testing.T) {
	cases := append(badOnePoint("1-2", "999"),
		badArgs{[]string{"--mode", "finelocking", "--count", "1"}, "--count 1"},
		badArgs{[]string{"--mode", "finelocking", "--model", "x.yaml"}, "--model"})
	for _, c := range cases {
		expectUsage(t, nil, append([]string{"why"}, c.args...), []string{c.want})
	}
}

// TestWhyNoLock: designs without a lock (testdata/nolock) are answered
// "none limits it", as a benchmark and as a study, whatever the
// timings (a count of operations, not a time, so that a busy machine
// cannot make it too few to know); and the shop's why starts no round that would not end within
// --within.
func TestWhyNoLock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchmarks with every lock watched, and a study")
	}
	t.Parallel()
	stdout, _ := succeeds(t, noChild(), "why", "./testdata/nolock", "-bench", "^BenchmarkNoLock/design=atomics$",
		"--cpus", "1", "--benchtime", "1024x", "--count", "2", "--noisy", "ok")
	if flat := strings.Join(strings.Fields(stdout), " "); !strings.Contains(flat, "BenchmarkNoLock/design=atomics took no lock and used no channel while its timer ran") ||
		!strings.Contains(flat, ": none limits it (sync.Mutex, RWMutex, sync.Map's locks and channels are watched; atomic words are not)") {
		t.Errorf("atomics: %q, want no lock", stdout)
	}
	// A pipeline's channels are watched, but no stretch lengthens their
	// locks: said, and nothing stretched.
	stdout, _ = succeeds(t, noChild(), "why", "./testdata/nolock", "-bench", "^BenchmarkNoLock/design=pipeline$",
		"--cpus", "1", "--benchtime", "1024x", "--count", "2", "--noisy", "ok")
	if flat := strings.Join(strings.Fields(stdout), " "); !strings.Contains(flat, "BenchmarkNoLock/design=pipeline took no sync.Mutex, RWMutex or sync.Map lock while its timer ran") ||
		!strings.Contains(flat, "and used channels (") || !strings.Contains(flat, "no stretch lengthens a channel's lock") {
		t.Errorf("pipeline: %q, want its channels named, none stretched", stdout)
	}
	// A lock taken once in 4096 operations, 1<<24 of them: seen (one take
	// in 256 is sampled), too rare to stretch, and said so without a round.
	// Beside busy processes a holder descheduled in its hold can make the
	// lock look held 1 % of the time or more: then it is stretched, and
	// cleared as met rarely. Either way no lock limits it.
	stdout, _ = succeeds(t, noChild(), "why", "./testdata/nolock", "-bench", "^BenchmarkNoLock/design=rare$",
		"--cpus", "1", "--benchtime", "16777216x", "--count", "2", "--noisy", "ok")
	flat := strings.Join(strings.Fields(stdout), " ")
	rare := strings.Contains(flat, "BenchmarkNoLock/design=rare took no lock often enough to queue its workers while its timer ran") &&
		strings.Contains(flat, "no lock watched limits it (sync.Mutex, RWMutex, sync.Map's locks and channels are; atomic words are not); it took the ")
	metRarely := strings.Contains(flat, "No single lock limits this: the workers found each part held by another too rarely") &&
		strings.Contains(flat, "not watched: atomic words")
	if !rare && !metRarely {
		t.Errorf("rare: %q, want a lock too rare to limit", stdout)
	}
	stdout, _ = succeeds(t, noChild(), "study", "./testdata/nolock/study", "why", "--variant", "atomics", "--cpus", "1",
		"--dur", "30ms", "--warmup", "10ms", "--count", "2", "--noisy", "ok")
	if !strings.HasPrefix(stdout, "atomics used no metered lock or channel while measured") || !strings.HasSuffix(stdout, "no metered part limits it.\n") {
		t.Errorf("study why of atomics: %q, want no metered part", stdout)
	}
	stdout, _ = succeeds(t, selfChild(), "why", "--mode", "locking", "--cpus", "1", "--count", "2", "--dur", "30ms", "--warmup", "10ms",
		"--sched", "fifo", "--within", "50ms")
	if !strings.Contains(strings.Join(strings.Fields(stdout), " "), "It stopped at its limit of 50ms after 0 rounds, rather than start a round that would not end in it.") {
		t.Errorf("why --within 50ms of a round of 8 runs of 40 ms: %q, want stopped before the first round", stdout)
	}
}
