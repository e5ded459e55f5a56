package record

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// at is a frame of a made-up stack: a function, its file and line.
type at struct {
	fn          string
	file        string
	line, start int64 // start: where the function begins, 0 if unknown
}

// sample is one made-up stack, innermost first, with its waits. Frames
// given together in a slice of more than one are one location with
// inlined calls, innermost first.
type sample struct {
	stack [][]at
	count int64
	delay time.Duration
}

// blockProfile writes samples as a block profile, the way the runtime
// does: contentions and delay, symbolized.
func blockProfile(t *testing.T, samples []sample) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "contentions", Unit: "count"}, {Type: "delay", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "contentions", Unit: "count"},
		Period:     1,
	}
	funcs := map[string]*profile.Function{}
	for _, s := range samples {
		smp := &profile.Sample{Value: []int64{s.count, int64(s.delay)}}
		for _, inlined := range s.stack {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + len(p.Location))}
			for _, f := range inlined {
				fn := funcs[f.fn]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.fn, SystemName: f.fn, Filename: f.file, StartLine: f.start}
					funcs[f.fn] = fn
					p.Function = append(p.Function, fn)
				}
				loc.Line = append(loc.Line, profile.Line{Function: fn, Line: f.line})
			}
			p.Location = append(p.Location, loc)
			smp.Location = append(smp.Location, loc)
		}
		p.Sample = append(p.Sample, smp)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// shopSources writes source files like the coffee shop's into a folder of
// the test's own, so that the summary reads known lines, and returns
// their absolute paths by name.
func shopSources(t *testing.T) map[string]string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"coffee/finelocking.go": "package coffee\n\nfunc (s *fineLocking) Brew() error {\n\ts.grinder.use(s.steps.grind())\n\ts.espresso.use(s.steps.press())\n\ts.steamer.use(s.steps.steam())\n\treturn nil\n}\n",
		"coffee/machine.go":     "package coffee\n\nfunc (m *lockedMachine) use(d time.Duration) {\n\tm.mu.Lock()\n}\n",
		"coffee/pipeline.go":    "package coffee\n\nfunc stage(in <-chan ticket) {\n\tfor t := range in {\n\t}\n\tc.wg.Go(func() { stage(m, d, in, out) })\n\tnext <- ticket{order: o}\n\thandOff(out, t.order)\n}\n",
		"coffee/linearpipe.go":  "package coffee\n\nfunc (s *linearPipe) Brew() error {\n\thandOff(s.orders, o)\n\t<-o.ready\n\t{\n}\n",
		"harness/run.go":        "package harness\n\nfunc (w *worker) loop() {\n\t\terr := op()\n\tselect {\n}\n",
	}
	paths := map[string]string{}
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = path
	}
	return paths
}

const mod = "github.com/brewput/brewput/"

// TestSummarizeNamesTheSites summarizes a made-up profile of the shop's
// waits: finelocking's three identical waits in its machines' use method
// must be told apart by their callers, a pipeline stage's and a
// customer's channel waits named where they are, the harness's clock
// ignored, small sites folded, every kind recognized.
func TestSummarizeNamesTheSites(t *testing.T) {
	src := shopSources(t)
	lock := at{"sync.(*Mutex).Lock", "/usr/local/go/src/sync/mutex.go", 46, 0}
	use := at{mod + "coffee.(*lockedMachine).use", src["coffee/machine.go"], 4, 0}
	brew := func(line int64) at {
		return at{mod + "coffee.(*fineLocking).Brew", src["coffee/finelocking.go"], line, 0}
	}
	loop := at{mod + "harness.(*worker).loop", src["harness/run.go"], 4, 0}
	stage := at{mod + "coffee.stage", src["coffee/pipeline.go"], 4, 0}
	// A one-line goroutine body, which names no site.
	staff := at{mod + "coffee.(*crew).staff.func1", src["coffee/pipeline.go"], 6, 6}
	goWrap := at{"sync.(*WaitGroup).Go.func1", "/usr/local/go/src/sync/waitgroup.go", 258, 0}
	handOff := at{mod + "coffee.handOff", src["coffee/pipeline.go"], 7, 0}
	pipeBrew := func(line int64) at {
		return at{mod + "coffee.(*linearPipe).Brew", src["coffee/linearpipe.go"], line, 0}
	}
	one := func(frames ...at) [][]at {
		var s [][]at
		for _, f := range frames {
			s = append(s, []at{f})
		}
		return s
	}
	ms := time.Millisecond
	data := blockProfile(t, []sample{
		// The grinder's wait twice, once with its lock inlined into use:
		// one site.
		{one(lock, use, brew(4), loop), 40, 200 * ms},
		{[][]at{{lock, use}, {brew(4)}, {loop}}, 10, 100 * ms},
		{one(lock, use, brew(5), loop), 30, 150 * ms},
		{one(lock, use, brew(6), loop), 20, 50 * ms},
		{one(at{"runtime.chanrecv2", "/go/src/runtime/chan.go", 1, 0}, stage, staff, goWrap), 500, 120 * ms},
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, pipeBrew(5), loop), 250, 80 * ms},
		{one(at{"runtime.chansend1", "/go/src/runtime/chan.go", 1, 0}, handOff, pipeBrew(4), loop), 5, 30 * ms},
		{one(at{"runtime.chansend1", "/go/src/runtime/chan.go", 1, 0}, handOff, at{stage.fn, stage.file, 8, 0}, staff, goWrap), 6, 25 * ms},
		{one(at{"sync.(*WaitGroup).Wait", "/go/src/sync/waitgroup.go", 1, 0}, at{mod + "sweep.Measure", "/nowhere/sweep/measure.go", 40, 0}, at{mod + "sweep.ServeChild", "/nowhere/sweep/runner.go", 90, 0}), 1, 20 * ms},
		{one(at{"sync.(*Cond).Wait", "/go/src/sync/cond.go", 1, 0}, at{mod + "x.wait", "/nowhere/x/x.go", 7, 0}), 2, 15 * ms},
		{one(at{"runtime.selectgo", "/go/src/runtime/select.go", 1, 0}, at{mod + "x.choose", "/nowhere/x/x.go", 9, 0}), 3, 10 * ms},
		// The harness's clock, which waits the whole window: ignored, as
		// is anything under it.
		{one(at{"runtime.selectgo", "/go/src/runtime/select.go", 1, 0}, at{mod + "harness.watch", src["harness/run.go"], 5, 0}, at{mod + "harness.Run", src["harness/run.go"], 1, 0}), 1, 1000 * ms},
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{mod + "harness.watch.func1", src["harness/run.go"], 5, 0}), 1, 1000 * ms},
		// The runtime's own goroutines and the profilers' waits: left out;
		// but not the main goroutine's.
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{"runtime.(*wakeableSleep).sleep", "/go/src/runtime/trace.go", 1, 0}, at{"runtime.traceStartReadCPU.func1", "/go/src/runtime/tracecpu.go", 56, 0}), 2, 200 * ms},
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{"compress/flate.NewWriter", "/go/src/compress/flate/deflate.go", 1, 0}, at{"runtime/pprof.profileWriter", "/go/src/runtime/pprof/pprof.go", 1, 0}), 2, 200 * ms},
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{"runtime/trace.Start", "/go/src/runtime/trace/trace.go", 1, 0}, at{mod + "measure/record.Start", "/nowhere/measure/record/record.go", 1, 0}, at{mod + "sweep.Measure", "/nowhere/sweep/measure.go", 1, 0}, at{"runtime.main", "/go/src/runtime/proc.go", 1, 0}), 2, 200 * ms},
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{mod + "x.main", "/nowhere/x/x.go", 3, 0}, at{"runtime.main", "/go/src/runtime/proc.go", 1, 0}), 1, 5 * ms},
		// Two tiny waits, folded.
		{one(at{"runtime.chanrecv1", "/go/src/runtime/chan.go", 1, 0}, at{mod + "x.tiny", "/nowhere/x/x.go", 1, 0}), 1, time.Microsecond},
		{one(at{"runtime.gopark", "/go/src/runtime/proc.go", 1, 0}, at{mod + "x.odd", "/nowhere/x/x.go", 2, 0}), 1, 2 * time.Microsecond},
	})
	waits, err := Summarize(bytes.NewReader(data), 100, Options{Ignore: []string{mod + "harness.watch"}, MinShare: DefaultMinShare})
	if err != nil {
		t.Fatal(err)
	}
	type wait struct {
		kind, site     string
		count          int64
		totalMs, perOp float64
	}
	want := []wait{
		{KindMutex, "s.grinder.use(s.steps.grind()) in coffee.(*fineLocking).Brew at coffee/finelocking.go:4", 50, 300, 3},
		{KindMutex, "s.espresso.use(s.steps.press()) in coffee.(*fineLocking).Brew at coffee/finelocking.go:5", 30, 150, 1.5},
		{KindChanReceive, "for t := range in { in coffee.stage at coffee/pipeline.go:4", 500, 120, 1.2},
		{KindChanReceive, "<-o.ready in coffee.(*linearPipe).Brew at coffee/linearpipe.go:5", 250, 80, 0.8},
		{KindMutex, "s.steamer.use(s.steps.steam()) in coffee.(*fineLocking).Brew at coffee/finelocking.go:6", 20, 50, 0.5},
		{KindChanSend, "handOff(s.orders, o) in coffee.(*linearPipe).Brew at coffee/linearpipe.go:4", 5, 30, 0.3},
		{KindChanSend, "handOff(out, t.order) in coffee.stage at coffee/pipeline.go:8", 6, 25, 0.25},
		{KindWaitGroup, "sweep.ServeChild at sweep/runner.go:90", 1, 20, 0.2},
		{KindCond, "x.wait at x/x.go:7", 2, 15, 0.15},
		{KindSelect, "x.choose at x/x.go:9", 3, 10, 0.1},
		{KindChanReceive, "x.main at x/x.go:3", 1, 5, 0.05},
		{KindOther, "", 2, 0.003, 0.00003}, // 2 smaller sites, each under 0.5 % of the total
	}
	if len(waits) != len(want) {
		t.Errorf("%d waits, want %d", len(waits), len(want))
	} else if f := waits[len(waits)-1]; f.Folded != 2 || f.Under != 0.005 {
		t.Errorf("the folded sites: %+v, want 2 under 0.5 %%", f)
	}
	for i := range min(len(waits), len(want)) {
		g, w := waits[i], want[i]
		if g.Kind != w.kind || g.Site != w.site || g.Count != w.count || !near(g.TotalMs, w.totalMs) || !near(g.PerOpMs, w.perOp) {
			t.Errorf("wait %d:\n got %+v\nwant %+v", i, g, w)
		}
	}

	// Without MinShare every site is kept; without ops, no time per op.
	all, err := Summarize(bytes.NewReader(data), 0, Options{Ignore: []string{mod + "harness.watch"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(want)+1 {
		t.Errorf("with MinShare 0, %d waits, want %d", len(all), len(want)+1)
	}
	for _, w := range all {
		if w.PerOpMs != 0 {
			t.Errorf("%+v: a time per op without ops", w)
		}
		if w.Site == "x.odd at x/x.go:2" && w.Kind != KindOther {
			t.Errorf("a wait in an unknown runtime function is %q, want other", w.Kind)
		}
	}
	// Not ignored, the clock's waits lead.
	noIgnore, err := Summarize(bytes.NewReader(data), 1, Options{})
	if err != nil || len(noIgnore) != len(all)+2 || noIgnore[0].TotalMs != 1000 || noIgnore[1].TotalMs != 1000 {
		t.Errorf("without Ignore, the harness's waits are not first: %+v, %v", noIgnore, err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func TestSummarizeRefusesWhatIsNoBlockProfile(t *testing.T) {
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		t.Fatal(err)
	}
	pprof.StopCPUProfile()
	var heap bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&heap, 0); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"text":          {[]byte("hello\n"), "read block profile"},
		"empty":         {nil, "read block profile"},
		"gzip garbage":  {[]byte{0x1f, 0x8b, 1, 2, 3}, "read block profile"},
		"a CPU profile": {cpu.Bytes(), "want contentions/count and delay/nanoseconds"},
		"a heap one":    {heap.Bytes(), "it holds alloc_objects/count"},
	} {
		waits, err := Summarize(bytes.NewReader(c.data), 1, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Summarize = %v, %v; want an error saying %q", name, waits, err, c.want)
		}
	}
}

func TestShortFile(t *testing.T) {
	for file, want := range map[string]string{
		"/work/main/coffee/finelocking.go":                 "coffee/finelocking.go",
		"github.com/brewput/brewput/coffee/finelocking.go": "coffee/finelocking.go",
		"/main.go": "main.go", "main.go": "main.go", "": "?",
	} {
		if got := shortFile(file); got != want {
			t.Errorf("shortFile(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestSourceLines: long lines are cut, lines of braces say nothing, and
// only absolute paths are read.
func TestSourceLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	long := "x := " + strings.Repeat("y", 100)
	if err := os.WriteFile(path, []byte("package a\n\t}\n"+long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := sources{}
	if got := src.line(path, 2); got != "" {
		t.Errorf("a closing brace reads %q, want nothing", got)
	}
	if got := src.line(path, 3); len([]rune(got)) != maxText || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "x := yyy") {
		t.Errorf("a long line reads %q, want it cut to %d characters", got, maxText)
	}
	if got := src.line(path, 9); got != "" {
		t.Errorf("a line past the end reads %q", got)
	}
	rel, _ := filepath.Rel(".", path)
	if got := (sources{}).line(rel, 1); got != "" && !filepath.IsAbs(rel) {
		t.Errorf("a relative path was read: %q", got)
	}
}
