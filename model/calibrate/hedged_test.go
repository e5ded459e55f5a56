package calibrate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// busyAt is a calibration of the machine "vm" measured at hour h while
// other processes used others CPUs, its mutex handoff 11.2 µs and wake-up
// 4.7 µs (what two calibrations beside two busy loops read here).
func busyAt(h int, others float64) Calibration {
	c := quietAt(h, 5)
	c.Others = others
	c.Costs.MutexHandoff, c.Lo.MutexHandoff, c.Hi.MutexHandoff = 11200, 11000, 11400
	c.Costs.Wake = 4700
	return c
}

// TestHedgedQuiet: a quiet and a given calibration are used as they are.
func TestHedgedQuiet(t *testing.T) {
	quiet := quietAt(1, 22)
	given := Calibration{}
	given.Costs.Wake = 3 * time.Microsecond
	for name, c := range map[string]Calibration{"quiet": quiet, "given": given} {
		if got := c.Hedged(); !reflect.DeepEqual(got, c) || got.SetAside != nil {
			t.Errorf("%s: hedged into %+v, want it unchanged", name, got)
		}
	}
}

// TestHedgedForQuiet: a calibration kept with --force on a busy machine,
// carrying the quiet ones before it, is set aside for the newest of them:
// the costs, the band and the reference are the quiet ones', and the
// reference names the busy one in its text and its JSON alike.
func TestHedgedForQuiet(t *testing.T) {
	busy := busyAt(3, 1.99)
	busy.Forced = true
	busy = busy.After(quietAt(2, 22).After(quietAt(1, 30)))
	h := busy.Hedged()
	if h.Costs.Wake != 22*time.Microsecond || h.Costs.MutexHandoff != 0 {
		t.Errorf("costs: wake %v, mutex handoff %v; want the quiet one's, 22µs and 0", h.Costs.Wake, h.Costs.MutexHandoff)
	}
	if lo, hi := h.Span(); lo.Wake != 21*time.Microsecond || hi.Wake != 31*time.Microsecond || hi.MutexHandoff != 0 {
		t.Errorf("band: wake %v–%v, mutex handoff up to %v; want 21µs–31µs over the two quiet ones, and 0", lo.Wake, hi.Wake, hi.MutexHandoff)
	}
	if h.Unknown() || !h.quiet() {
		t.Errorf("unknown %v, quiet %v; want this machine's quiet costs", h.Unknown(), h.quiet())
	}
	ref := h.Ref()
	a := ref.SetAside
	if a == nil || !a.Forced || a.Others != 1.99 || a.Reference || !a.Date.Equal(busy.Date) {
		t.Fatalf("set aside %+v; want the forced one of 1.99 CPUs", a)
	}
	if k, _ := ref.Cost("wake"); k.Median != 22*time.Microsecond {
		t.Errorf("the reference's wake %v, want the quiet one's 22µs", k.Median)
	}
	if ref.Busy() || ref.Calibrations != 2 {
		t.Errorf("busy %v, %d calibrations; want quiet, 2", ref.Busy(), ref.Calibrations)
	}
	if got := a.Costs; len(got) != len(costNames) || got[4].Name != "mutex handoff" || got[4].Median != 11200 {
		t.Errorf("the busy costs kept for the record: %+v", got)
	}
	const want = "set aside: the calibration kept with --force from a busy machine (other processes used 1.99 CPUs), for this machine's last quiet one"
	sameInTextAndJSON(t, ref, want)
}

// TestHedgedForReference: one measured for this run on a busy machine,
// with no quiet one before it, is set aside for the reference machine's
// costs, its machine then not known.
func TestHedgedForReference(t *testing.T) {
	busy := busyAt(3, 1.37)
	busy.Unsaved = true
	h := busy.Hedged()
	r := Reference()
	if h.Costs != r.Costs || h.Lo != r.Lo || h.Hi != r.Hi || h.Host.Name != ReferenceHost {
		t.Errorf("hedged into %s's costs %+v, want the reference's %+v", h.Host.Name, h.Costs, r.Costs)
	}
	if !h.Unknown() || !h.quiet() || r.Samples == 0 || r.Costs.Wake == 0 {
		t.Errorf("unknown %v, quiet %v, reference samples %d wake %v; want an unknown machine and a quiet reference", h.Unknown(), h.quiet(), r.Samples, r.Costs.Wake)
	}
	ref := h.Ref()
	if !ref.SetAside.Reference || !ref.SetAside.Unsaved || !strings.Contains(text.CalibrationFor(ref), "for "+ReferenceHost+"'s runtime costs") {
		t.Errorf("the reference says %q, set aside %+v", text.CalibrationFor(ref), ref.SetAside)
	}
	const want = "set aside: the calibration measured for this run on a busy machine (other processes used 1.37 CPUs), no quiet one being kept (brewput calibrate on a quiet machine keeps one)"
	sameInTextAndJSON(t, ref, want)
}

// sameInTextAndJSON checks that ref's text says want, and that the
// reference read back from its JSON says the same in the same words.
func sameInTextAndJSON(t *testing.T, ref results.Calibration, want string) {
	t.Helper()
	if !strings.HasSuffix(text.CalibrationFor(ref), "; "+want) || !strings.Contains(text.CalibrationLine(ref), want) {
		t.Errorf("CalibrationFor = %q\nwant it to end %q", text.CalibrationFor(ref), want)
	}
	data, err := json.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	var back results.Calibration
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"set_aside":{`) || text.CalibrationFor(back) != text.CalibrationFor(ref) || !reflect.DeepEqual(back.SetAside, ref.SetAside) {
		t.Errorf("JSON %s\nreads back as %q, set aside %+v\nwant %q", data, text.CalibrationFor(back), back.SetAside, text.CalibrationFor(ref))
	}
}
