package study

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testStudy has a variant whose every call holds one metered mutex for
// 200 µs, so that the mutex is held, or waited for, all the time whatever
// the machine, and one with no lock at all.
func testStudy() Study {
	mu := meter.NewMutex("table")
	return Study{
		Name: "demo", Unit: "calls", Summary: "one lock against none",
		Variants: []Variant{
			{Name: "one-lock", Summary: "every call holds one mutex",
				Op: func(context.Context) error {
					mu.Lock()
					time.Sleep(200 * time.Microsecond)
					mu.Unlock()
					return nil
				},
				Meters: func() []meter.Meter { return []meter.Meter{mu} }},
			{Name: "no-lock", Summary: "every call sleeps",
				Op: func(context.Context) error { time.Sleep(200 * time.Microsecond); return nil }},
		},
	}
}

// TestMeasure measures a variant in process: setup and teardown run once
// each, around the window, and the point is the study's with its meter as
// a machine, which its description reads.
func TestMeasure(t *testing.T) {
	s := testStudy()
	var setups, teardowns atomic.Int32
	s.Variants[0].Setup = func(context.Context) error { setups.Add(1); return nil }
	s.Variants[0].Teardown = func(context.Context) error { teardowns.Add(1); return nil }
	p, err := s.Measure(context.Background(), "one-lock", sweep.Load{CPUs: 1, Load: results.Load{Par: 4, Warmup: 20 * time.Millisecond, Dur: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if setups.Load() != 1 || teardowns.Load() != 1 {
		t.Errorf("%d setups, %d teardowns; want 1 each", setups.Load(), teardowns.Load())
	}
	if p.StudyName() != "demo" || p.Mode != "one-lock" || p.Unit != "calls/s" || p.CPUs != 1 || p.Par != 4 || p.Ops == 0 || p.Hist == "" {
		t.Fatalf("point %+v", p)
	}
	if len(p.Machines()) != 1 || p.Machines()[0].Name != "table" || p.Machines()[0].Kind != meter.KindMutex || p.Machines()[0].Uses == 0 {
		t.Fatalf("machines %+v", p.Machines())
	}
	if p.Kind != results.KindStudy || p.Bottleneck != nil {
		t.Errorf("kind %s, bottleneck %+v; want a study's point with no verdict", p.Kind, p.Bottleneck)
	}
	if d := text.Describe(p); !strings.HasPrefix(d, text.NoCausalProfile) || !strings.Contains(d, "mutex table held") || strings.Contains(d, "shard") {
		t.Errorf("description %q; want the meter's readings and no advice", d)
	}

	if _, err := s.Measure(context.Background(), "nope", sweep.Load{CPUs: 1, Load: results.Load{Dur: time.Millisecond}}); err == nil || !strings.Contains(err.Error(), "one-lock, no-lock") {
		t.Errorf("unknown variant: %v", err)
	}
	s.Variants[1].Setup = func(context.Context) error { return os.ErrPermission }
	if _, err := s.Measure(context.Background(), "no-lock", sweep.Load{CPUs: 1, Load: results.Load{Dur: time.Millisecond}}); err == nil || !strings.Contains(err.Error(), "no-lock: setup") {
		t.Errorf("failing setup: %v", err)
	}
}

func TestValidate(t *testing.T) {
	op := func(context.Context) error { return nil }
	for want, s := range map[string]Study{
		"study name is empty":        {Variants: []Variant{{Name: "a", Op: op}}},
		"no variants":                {Name: "x"},
		`name "a b": want no spaces`: {Name: "x", Variants: []Variant{{Name: "a b", Op: op}}},
		`name "a/b"`:                 {Name: "x", Variants: []Variant{{Name: "a/b", Op: op}}},
		`two variants are named "a"`: {Name: "x", Variants: []Variant{{Name: "a", Op: op}, {Name: "a", Op: op}}},
		"variant a has no Op":        {Name: "x", Variants: []Variant{{Name: "a"}}},
		`unit "ops/s": want a word`:  {Name: "x", Unit: "ops/s", Variants: []Variant{{Name: "a", Op: op}}},
	} {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%+v) = %v, want %q", s, err, want)
		}
	}
	if err := testStudy().Validate(); err != nil {
		t.Error(err)
	}
}

// serve answers brewput's protocol in process: describe writes the
// study's description, point measures the request given on stdin, with
// its meters stretched where it says so; anything else is one line saying
// how to run the program with brewput, exit 2.
func TestServe(t *testing.T) {
	run := func(stdin string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := serve(context.Background(), testStudy(), args, strings.NewReader(stdin), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, out, errs := run("", "describe")
	var d Description
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil {
		t.Fatalf("describe: exit %d, %v: %s%s", code, err, out, errs)
	}
	want := Description{Name: "demo", Summary: "one lock against none", Unit: "calls/s", Variants: []VariantInfo{
		{Name: "one-lock", Summary: "every call holds one mutex"}, {Name: "no-lock", Summary: "every call sleeps"}}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("describe = %+v, want %+v", d, want)
	}
	for _, st := range []*Stretch{nil, {Group: "table", Extra: time.Microsecond}, {Outside: true, Extra: time.Microsecond}} {
		req, err := json.Marshal(Request{Variant: "one-lock", Load: sweep.Load{CPUs: 1, Load: results.Load{Par: 2, Dur: 30 * time.Millisecond}}, Stretch: st})
		if err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(string(req), "point")
		var p results.Point
		if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil {
			t.Fatalf("point %+v: exit %d, %v: %s%s", st, code, err, out, errs)
		}
		if p.StudyName() != "demo" || p.Mode != "one-lock" || p.Par != 2 || len(p.Machines()) != 1 || p.Machines()[0].Name != "table" {
			t.Errorf("point %+v: %+v", st, p)
		}
	}
	if code, _, errs := run(`{"variant": "nope", "load": {"cpus": 1, "dur": 1000000}}`, "point"); code != exitcode.Fail || !strings.Contains(errs, `no variant "nope"`) {
		t.Errorf("point of no variant: exit %d, %q", code, errs)
	}
	for _, args := range [][]string{nil, {"--cpus", "1"}, {"describe", "x"}} {
		if code, out, errs := run("", args...); code != exitcode.Usage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "brewput study ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and a line saying how to run it with brewput", args, code, out, errs)
		}
	}
	var errOut bytes.Buffer
	if code := serve(context.Background(), Study{Name: "bad"}, []string{"describe"}, nil, io.Discard, &errOut); code != exitcode.Usage || !strings.Contains(errOut.String(), "no variants") {
		t.Errorf("an invalid study: exit %d, %q", code, errOut.String())
	}
}
