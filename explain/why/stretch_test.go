package why

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// stretches makes an experiment's runs: base the variant's throughput as
// it is, its two workers waiting a fifth of their time for each part's
// locks; the control's and each part's runs the base less its cost in
// that round.
func stretches(base, control []float64, parts map[string][]float64) *Stretches {
	s := &Stretches{Study: "cache", Variant: "mutex-write", CPUs: 2, Frac: 0.5, OpTime: 60, Extra: 30,
		Margin: 0.5 / 1.5 / 10, Unit: "ops/s"}
	s.Control.Extra = s.Extra
	for r, b := range base {
		s.Base = append(s.Base, results.Point{Throughput: b, Spec: results.Spec{Load: results.Load{Par: 2, Dur: time.Second}},
			Study: &results.Study{Name: "cache", Meters: waiting(0.2)}})
		s.Control.Points = append(s.Control.Points, results.Point{Throughput: b * (1 - control[r])})
	}
	for _, name := range []string{"the cache mutex", "the shard mutexes (64)"} {
		e := Stretched{Name: name, Group: strings.Fields(name)[1], Kind: "mutex", Members: 1, UsesPerOp: 1, Extra: s.Extra}
		for r, c := range parts[name] {
			e.Points = append(e.Points, results.Point{Throughput: base[r] * (1 - c)})
		}
		s.Experiments = append(s.Experiments, e)
	}
	return s
}

// TestStretchAgainstItsControl: a part is named as the limit only where
// its cost, less its control's in the same round, has an interval wholly
// above the margin; one that costs what the control costs is decided not
// to limit; one whose interval spans the margin leaves the answer
// undecided, and the answer says so first, and what would decide it.
func TestStretchAgainstItsControl(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.33, 0.34, 0.32, 0.33, 0.335, 0.33}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.60, 0.62, 0.59, 0.61, 0.60, 0.60},
		"the shard mutexes (64)": {0.335, 0.34, 0.325, 0.33, 0.34, 0.33},
	})
	s.Judge()
	l := s.Limit()
	if l == nil || l.Name != "the cache mutex" {
		t.Fatalf("limit %+v, want the cache mutex", l)
	}
	if !s.Decided() {
		t.Errorf("both intervals lie on one side of the margin, yet undecided: %+v", s.Experiments)
	}
	if a := s.Answer(); !strings.HasPrefix(a, "The cache mutex limits this: adding 30ns per operation (50 % of one)") ||
		!strings.Contains(a, "no more than the control: the shard mutexes (64)") {
		t.Errorf("answer %q", a)
	}

	// The shard mutexes alone, their cost straddling the control's and
	// the margin: undecided, said first.
	s = stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.335, 0.34, 0.325, 0.33, 0.34, 0.33},
		"the shard mutexes (64)": {0.33, 0.40, 0.33, 0.39, 0.34, 0.37},
	})
	s.Judge()
	if l := s.Limit(); l != nil {
		t.Errorf("named %s with its interval [%v, %v] around the margin %v", l.Name, l.Lo, l.Hi, s.Margin)
	}
	a := s.Answer()
	if !strings.HasPrefix(a, "Undecided after 6 rounds") || !strings.Contains(a, "What would decide it") {
		t.Errorf("answer %q", a)
	}

	// Every part costing what the control costs: no single lock.
	s = stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.335, 0.34, 0.325, 0.33, 0.34, 0.33},
		"the shard mutexes (64)": {0.33, 0.345, 0.32, 0.335, 0.33, 0.335},
	})
	s.Judge()
	if a := s.Answer(); !strings.HasPrefix(a, "No single lock limits this") {
		t.Errorf("answer %q", a)
	}
}

// waiting are the two parts' meters, their two workers waiting for
// each the share of their time of a run of a second.
func waiting(share float64) []results.Machine {
	const uses = 1_000_000
	wait := share * 2 * 1e3 / uses // ms a use
	return []results.Machine{{Name: "cache", Kind: "mutex", Uses: uses, MeanWaitMs: wait}, {Name: "shard#1", Kind: "mutex", Uses: uses, MeanWaitMs: wait}}
}

// TestLittleWaitedLockUndecided: a shared lock whose stretch costs
// more than its control, but which the workers waited for less than the
// margin of their time as it is, is not named: a stretch of half an
// operation may have made the queue it measured. It is undecided, and the
// answer says what would decide it.
func TestLittleWaitedLockUndecided(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.33, 0.34, 0.32, 0.33, 0.335, 0.33}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.50, 0.52, 0.49, 0.51, 0.50, 0.50},
		"the shard mutexes (64)": {0.335, 0.34, 0.325, 0.33, 0.34, 0.33},
	})
	for i := range s.Base {
		s.Base[i].Study.Meters = waiting(0.01)
	}
	s.Judge()
	e := s.Experiments[0]
	if l := s.Limit(); l != nil || !e.Uncontended || e.Decided || e.Waited < 0.0099 || e.Waited > 0.0101 {
		t.Fatalf("limit %v; the cache mutex, waited for 1 %% of the time: %+v; want undecided, not named", l, e)
	}
	if a := s.Answer(); !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) to this lock cost more than the same time outside every lock") ||
		!strings.Contains(a, "the cache mutex, 30ns to each hold: 17.0 % [16.5, 18.0] beyond the control, yet waited for 1.0 % of the time as it is, less than 3.3 %") ||
		!strings.Contains(a, "no more than the control: the shard mutexes (64)") ||
		!strings.Contains(a, "What would decide it: a relief measured") {
		t.Errorf("answer %q", a)
	}
}

// TestPlanSizesByTheOperation: every part is stretched by the same time
// per operation, Frac of a worker's time per operation, spread over its
// uses per operation; the control adds as much to each operation.
func TestPlanSizesByTheOperation(t *testing.T) {
	base := results.Point{Spec: results.Spec{Mode: "v", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Ops: 20_000_000, Unit: "ops/s",
		Study: &results.Study{Name: "s", Meters: []results.Machine{
			{Name: "lim", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.3, Takers: 1},
			{Name: "shard#1", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.2, Takers: 1},
			{Name: "shard#2", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.2, Takers: 1},
		}}}
	s := PlanStretches("s", 0.5, base)
	if s.OpTime != 100 || s.Extra != 50 || s.Control.Extra != 50 {
		t.Errorf("op %v, extra %v, control %v; want 100ns, 50ns, 50ns", s.OpTime, s.Extra, s.Control.Extra)
	}
	if len(s.Experiments) != 2 || s.Experiments[0].Extra != 50 || s.Experiments[1].Extra != 25 {
		t.Errorf("experiments %+v: want lim 50ns a use, the shards (two uses an op) 25ns", s.Experiments)
	}
}

// TestDisturbedRoundsDecideNothing: beside a busy process a lock's
// stretch can cost what the control costs because the CPU the two would
// share is not there, or more, because a holder is descheduled holding
// it: rounds with a disturbed run neither clear a part nor name one.
func TestDisturbedRoundsDecideNothing(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.33, 0.34, 0.32, 0.33, 0.335, 0.33}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.335, 0.34, 0.325, 0.33, 0.34, 0.33},
		"the shard mutexes (64)": {0.60, 0.62, 0.59, 0.61, 0.60, 0.60},
	})
	for i := range s.Base {
		s.Base[i].Disturbed = true
	}
	s.Judge()
	if l := s.Limit(); l != nil {
		t.Errorf("a limit named on disturbed rounds alone: %+v", l)
	}
	for _, e := range s.Experiments {
		if e.Decided || e.QuietRounds != 0 {
			t.Errorf("%s decided on disturbed rounds: %+v", e.Name, e)
		}
	}
	if a := s.Answer(); !strings.HasPrefix(a, "Undecided after 6 rounds") || !strings.Contains(a, "the shard mutexes (64), 30ns to each hold: 27.0 %") {
		t.Errorf("answer %q", a)
	}
	s.Experiments = s.Experiments[:1]
	if a := s.Answer(); !strings.HasPrefix(a, "Undecided after 6 rounds") || !strings.Contains(a, "Only 0 of the 6 rounds ran undisturbed, and a part is decided on undisturbed rounds alone") {
		t.Errorf("answer %q", a)
	}
}

// TestStretchCheaperThanItsControlUndecided: a lock whose stretch cost
// clearly less than its control (the control, time before a short lock,
// made it pass between the CPUs more often) is not cleared: the control
// is no match for it, and the answer says so and what would decide it.
func TestStretchCheaperThanItsControlUndecided(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.40, 0.41, 0.39, 0.40, 0.405, 0.40}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.33, 0.36, 0.32, 0.35, 0.34, 0.345},
		"the shard mutexes (64)": {0.40, 0.41, 0.395, 0.40, 0.41, 0.40},
	})
	s.Judge()
	e := s.Experiments[0]
	if l := s.Limit(); l != nil || !e.Unmatched || e.Decided || !(e.Hi < -s.Margin) {
		t.Fatalf("limit %v; the cache mutex, 19 points cheaper than its control: %+v; want undecided, not cleared", l, e)
	}
	if !s.Experiments[1].Decided || s.Experiments[1].Unmatched {
		t.Errorf("the shard mutexes, costing what the control costs: %+v; want cleared", s.Experiments[1])
	}
	a := s.Answer()
	if !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) to this lock cost less than the same time outside every lock, which cost 40.0 %") ||
		!strings.Contains(a, "so the control changed how the lock passes between the CPUs and is no match for it") ||
		!strings.Contains(a, "no more than the control: the shard mutexes (64)") ||
		!strings.Contains(a, "What would decide it: a relief measured (the code changed so that the lock is not shared).") {
		t.Errorf("answer %q", a)
	}
	var out strings.Builder
	if err := s.WriteTable(&out); err != nil || !strings.Contains(out.String(), "no match") {
		t.Errorf("table (%v):\n%s", err, out.String())
	}

	// Beside a part that cost more than its control but was waited for
	// little: both undecided, under one heading true of both.
	s = stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.33, 0.36, 0.32, 0.35, 0.34, 0.345},
		"the shard mutexes (64)": {0.70, 0.72, 0.69, 0.71, 0.70, 0.70},
	})
	for i := range s.Base {
		s.Base[i].Study.Meters = waiting(0.01)
	}
	s.Judge()
	if a := s.Answer(); !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) to these parts decided none of them against the same time outside every lock") ||
		!strings.Contains(a, "is no match for it") || !strings.Contains(a, "the stretch may have made the queue it measured") {
		t.Errorf("answer %q", a)
	}
}

// TestSerialControlClearsNothing: where the control cost as much as time
// added on a path the workers take one at a time (examples/truth's 12 ns
// lock, one worker retaking it while the other sleeps: 52-55 % at half
// an operation, where 33 % is what nothing queued would cost and 50 %
// what a bottleneck's would), a stretch costing what the control costs
// shows nothing, and no part is cleared.
func TestSerialControlClearsNothing(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.53, 0.54, 0.52, 0.55, 0.535, 0.53}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.53, 0.54, 0.525, 0.55, 0.54, 0.53},
		"the shard mutexes (64)": {0.53, 0.545, 0.52, 0.55, 0.535, 0.535},
	})
	s.Bottleneck = 0.5
	s.Judge()
	for _, e := range s.Experiments {
		if e.Decided || !e.Serial {
			t.Errorf("%s, costing what a serial control costs: %+v; want undecided", e.Name, e)
		}
	}
	if a := s.Answer(); !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) to these parts cost no more than the same time outside every lock, which cost 53.2 %, as much as time where the workers run one at a time (50.0 %)") ||
		!strings.Contains(a, "What would decide it: a relief measured") {
		t.Errorf("answer %q", a)
	}
	// The same costs, the control where nothing queues: cleared.
	control = []float64{0.33, 0.34, 0.32, 0.33, 0.335, 0.33}
	s = stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.33, 0.34, 0.325, 0.33, 0.34, 0.33},
		"the shard mutexes (64)": {0.33, 0.345, 0.32, 0.335, 0.33, 0.335},
	})
	s.Bottleneck = 0.5
	s.Judge()
	if a := s.Answer(); !strings.HasPrefix(a, "No single lock limits this") {
		t.Errorf("answer %q", a)
	}
}

// TestShortOfTheBarUndecided: time inside a lock two workers share costs
// more than time outside it wherever the lock is busy at all, so a part
// whose stretch cost clearly more than its control, but not clearly half
// the way to what a bottleneck's costs, is undecided, never named.
func TestShortOfTheBarUndecided(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.33, 0.34, 0.32, 0.33, 0.335, 0.33}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.38, 0.39, 0.375, 0.385, 0.39, 0.38},
		"the shard mutexes (64)": {0.33, 0.345, 0.32, 0.335, 0.33, 0.335},
	})
	s.Bottleneck, s.Bar = 0.5, (0.5-1.0/3)/2
	s.Judge()
	e := s.Experiments[0]
	if l := s.Limit(); l != nil || !e.Short || e.Decided {
		t.Fatalf("limit %v; the cache mutex, 5 points beyond its control, under the bar of 8.3: %+v; want undecided", l, e)
	}
	a := s.Answer()
	if !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) to this lock cost more than the same time outside every lock, which cost 33.0 %, but not clearly 8.3 % more") ||
		!strings.Contains(a, "no more than the control: the shard mutexes (64)") || !strings.Contains(a, "What would decide it: a relief measured") {
		t.Errorf("answer %q", a)
	}
	var out strings.Builder
	if err := s.WriteTable(&out); err != nil || !strings.Contains(out.String(), "below bar") {
		t.Errorf("table (%v):\n%s", err, out.String())
	}
}

// TestFitFrac: a lock the workers share is stretched by no more than
// fills a quarter of its idle time at the control's throughput; a lock of
// one goroutine's own, a readers' lock and 64 shards bind nothing, and a
// busy lock leaves MinFrac.
func TestFitFrac(t *testing.T) {
	point := func(meters ...results.Machine) results.Point {
		return results.Point{Spec: results.Spec{Mode: "v", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Ops: 1_000_000, Unit: "ops/s",
			Study: &results.Study{Name: "s", Meters: meters}}
	}
	shards := make([]results.Machine, 64)
	for i := range shards {
		shards[i] = results.Machine{Name: "shard#" + string(rune('0'+i/10)) + string(rune('0'+i%10)), Kind: "mutex", Uses: 1_000_000 / 64, BusyFrac: 0.02, Takers: 2}
	}
	for _, c := range []struct {
		what  string
		asked float64
		p     results.Point
		want  float64
		bound string
	}{
		// logrus to io.Discard: one lock, busy 25.8 %, both workers take it:
		// (1-0.258)/4 / (2-0.258-(1-0.258)/4) = 0.119.
		{"a shared lock busy a quarter of the time", 0.5, point(results.Machine{Name: "mu", Kind: "mutex", Uses: 4_000_000, BusyFrac: 0.258, Takers: 2}), 0.1192, "mu"},
		{"a lock whose takers are not known (a study's meter)", 0.5, point(results.Machine{Name: "mu", Kind: "mutex", Uses: 1_000_000, BusyFrac: 0.258}), 0.1192, "mu"},
		{"a saturated lock", 0.5, point(results.Machine{Name: "mu", Kind: "mutex", Uses: 1_000_000, BusyFrac: 0.95, Takers: 2}), MinFrac, "mu"},
		{"asked for less than MinFrac", 0.05, point(results.Machine{Name: "mu", Kind: "mutex", Uses: 1_000_000, BusyFrac: 0.95, Takers: 2}), 0.05, "mu"},
		{"a lock of each goroutine's own", 0.5, point(results.Machine{Name: "mu#1", Kind: "mutex", Uses: 500_000, BusyFrac: 0.6, Takers: 1}, results.Machine{Name: "mu#2", Kind: "mutex", Uses: 500_000, BusyFrac: 0.6, Takers: 1}), 0.5, ""},
		{"readers only", 0.5, point(results.Machine{Name: "rw", Kind: "rwmutex", Uses: 1_000_000, Reads: 1_000_000, Takers: 2}), 0.5, ""},
		{"64 shards", 0.5, point(shards...), 0.5, ""},
		{"a channel", 0.5, point(results.Machine{Name: "c", Kind: "chan send", Uses: 1_000_000, BusyFrac: 0.9}), 0.5, ""},
	} {
		f, bound, _ := FitFrac(c.asked, c.p)
		if f < c.want-0.0005 || f > c.want+0.0005 || (c.want < c.asked && bound != c.bound) {
			t.Errorf("%s: frac %.4f bound by %q; want %.4f by %q", c.what, f, bound, c.want, c.bound)
		}
		s := PlanStretches("s", c.asked, c.p)
		if s.Frac != f || s.Asked != c.asked || (f < c.asked) != (s.Fitted != "") {
			t.Errorf("%s: plan frac %v asked %v fitted %q", c.what, s.Frac, s.Asked, s.Fitted)
		}
	}
}
