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
			{Name: "lim", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.3},
			{Name: "shard#1", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.2},
			{Name: "shard#2", Kind: "mutex", Uses: 20_000_000, BusyFrac: 0.2},
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

// TestSerialControlNamesNothing: where the control cost nearer what time
// added on a path the workers take one at a time costs than what it costs
// where nothing queues (logrus to io.Discard: 42-48 % at half an
// operation, where 33 % is the one and 50 % the other), a lock whose
// stretch costs more is not named; a part costing what the control costs
// is still cleared.
func TestSerialControlNamesNothing(t *testing.T) {
	base := []float64{100, 102, 98, 101, 99, 100}
	control := []float64{0.43, 0.44, 0.42, 0.45, 0.435, 0.43}
	s := stretches(base, control, map[string][]float64{
		"the cache mutex":        {0.63, 0.64, 0.62, 0.65, 0.64, 0.63},
		"the shard mutexes (64)": {0.43, 0.445, 0.42, 0.45, 0.435, 0.435},
	})
	s.Bottleneck = 0.5
	s.Judge()
	if e := s.Experiments[0]; e.Decided || e.Limits || !e.Serial {
		t.Errorf("%s, beside a control that cost 43 %%: %+v; want undecided", e.Name, e)
	}
	if e := s.Experiments[1]; !e.Decided || e.Limits || e.Serial {
		t.Errorf("%s, costing what the control costs: %+v; want cleared", e.Name, e)
	}
	a := s.Answer()
	if !strings.HasPrefix(a, "Undecided after 6 rounds: adding 30ns per operation (50 % of one) outside every lock (the control) cost 43.2 %, nearer what it costs where every operation waits its turn (50.0 %) than where nothing queues (33.3 %)") ||
		!strings.Contains(a, "no more than the control: the shard mutexes (64)") ||
		!strings.Contains(a, "What would decide it: a relief measured") {
		t.Errorf("answer %q", a)
	}
	var out strings.Builder
	if err := s.WriteTable(&out); err != nil || !strings.Contains(out.String(), "serial") {
		t.Errorf("table (%v):\n%s", err, out.String())
	}
	// However long the lock was held as it is (logrus's read 75 % in
	// one run): not named beside the serial control.
	for i := range s.Base {
		s.Base[i].Study.Meters[0].BusyFrac = 0.75
	}
	s.Judge()
	if l := s.Limit(); l != nil || !s.Experiments[0].Serial {
		t.Errorf("limit %+v; want none beside the serial control, the lock held 75 %% of the time", l)
	}
	// The same costs beside a control where nothing queues: named.
	for i := range s.Base {
		s.Control.Points[i].Throughput = base[i] * (1 - 0.33)
		s.Experiments[0].Points[i].Throughput = base[i] * (1 - 0.53)
	}
	s.Judge()
	if l := s.Limit(); l == nil || l.Name != "the cache mutex" {
		t.Errorf("limit %+v; want the cache mutex", l)
	}
}
