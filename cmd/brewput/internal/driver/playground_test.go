package driver

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/playground"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/report/palette"
)

// pageState is what the playground shows once an experiment is done.
type pageState struct {
	Done     string   `json:"done"`
	Headline string   `json:"headline"`
	Because  string   `json:"because"`
	Args     string   `json:"args"`
	Result   string   `json:"result"`
	Error    string   `json:"error"`
	Schedule string   `json:"schedule"`
	First    string   `json:"first"`
	Point    string   `json:"point"`
	Curve    string   `json:"curve"`
	Limits   []string `json:"limits"`
	Link     string   `json:"link"`
}

// TestPlayground builds the playground as a user does, opens it from disk
// in headless Chromium, and holds the page to the CLI: for each experiment
// its URL names, the JSON in #result is what brewput model --format json
// prints for the command line the page ran, the schedule's words are
// brewput schedule's, and a YAML error is the CLI's message.
func TestPlayground(t *testing.T) {
	if race.Enabled {
		// Under the detector its simulations took 55 s of the race run (at load 11); they
		// are the model's, whose goroutines package model's tests run
		// under it, and what it asserts the plain run checks.
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	if testing.Short() {
		t.Skip("builds the WebAssembly engine")
	}
	endToEnd(t)
	testkit.Chromium(t)
	// Every command here is given its calibration (or the fifo policy,
	// which needs none), so none reads the user's config folder: beside
	// the other tests.
	t.Parallel()
	site, calFile, stdout, _ := sharedPlayground(t)
	if !strings.Contains(stdout, site) {
		t.Errorf("brewput playground does not say where the site is:\n%s", stdout)
	}
	for _, name := range []string{"index.html", "app.js", "engine.js", "calibration.json"} {
		if _, err := os.Stat(filepath.Join(site, name)); err != nil {
			t.Errorf("the site lacks %s: %v", name, err)
		}
	}
	t.Log(strings.TrimSpace(stdout))
	// The engine is held gzipped, and inflates to a WebAssembly module.
	engine, err := os.ReadFile(filepath.Join(site, "engine.js"))
	if err != nil {
		t.Fatal(err)
	}
	packed := regexp.MustCompile(`wasmGzip: "([A-Za-z0-9+/=]+)"`).FindSubmatch(engine)
	if packed == nil {
		t.Fatalf("engine.js holds no gzipped module:\n%.300s", engine)
	}
	gz, err := base64.StdEncoding.DecodeString(string(packed[1]))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Errorf("engine.js's module inflates to %d bytes starting %q (%v); want a WebAssembly module", len(wasm), wasm[:min(len(wasm), 4)], err)
	}
	t.Logf("engine: %d bytes of WebAssembly, %d gzipped", len(wasm), len(gz))

	page := chromium.Browser(t).Page(t, 1280, 1600)
	url := "file://" + filepath.Join(site, "index.html")
	open := func(hash string) pageState {
		t.Helper()
		if hash != "" { // "" waits for the page as it was opened
			if _, err := chromedp.Run(page.Ctx, chromedp.Evaluate[int](fmt.Sprintf(`delete document.body.dataset.done; location.hash = %q; 0`, hash))); err != nil {
				t.Fatalf("open %s: %v", hash, err)
			}
		}
		if err := page.Poll(`!!document.body.dataset.done`, 3*time.Minute); err != nil {
			t.Fatalf("open %s: the page did not finish: %v", hash, err)
		}
		st, err := chromedp.Run(page.Ctx, chromedp.Evaluate[pageState](`({done: document.body.dataset.done, headline: document.getElementById("headline").textContent,
				because: document.getElementById("because").textContent,
				args: document.getElementById("result").dataset.args || "", result: document.getElementById("result").textContent,
				error: document.getElementById("error").textContent, schedule: document.getElementById("schedsummary").textContent,
				first: document.body.dataset.first || "", point: document.body.dataset.point || "",
				curve: document.body.dataset.curve || "", link: document.getElementById("link").href,
				limits: [...document.querySelectorAll("#limits tbody tr td:nth-child(4)")].map((td) => td.textContent)})`))
		if err != nil {
			t.Fatalf("open %s: %v", hash, err)
		}
		return st
	}
	// No modes compared beside these (compare=): what is checked is the
	// chosen mode's, and simulating the others' curves took a fifth of
	// this test's CPU time; the front door and issue42's links draw them.
	experiments := []struct {
		hash     string
		args     []string
		headline string
	}{
		{"mode=finelocking&cpus=6&sched=fifo&compare=", []string{"model", "--modes", "finelocking", "--cpus", "6", "--sched", "fifo", "--format", "json"}, "finelocking on 6 CPUs: "},
		{"mode=multi-2&cpus=4&sched=go&compare=", []string{"model", "--modes", "multi-2", "--cpus", "4", "--calibration", "/calibration.json", "--format", "json"}, "multi-2 on 4 CPUs: "},
		{"mode=linearpipe-1&cpus=3&sched=go&compare=", []string{"model", "--modes", "linearpipe-1", "--cpus", "3", "--calibration", "/calibration.json", "--format", "json"}, "linearpipe-1 on 3 CPUs: "},
		{"mode=locking&cpus=2&sched=fifo&par=4&grind=2&compare=", []string{"model", "--modes", "locking", "--cpus", "2", "--sched", "fifo", "--par", "4", "--grind", "2ms", "--format", "json"}, "locking on 2 CPUs: "},
	}
	if err := chromedp.Do(page.Ctx, chromedp.Navigate(url+"#"+experiments[0].hash)); err != nil {
		t.Fatal(err)
	}
	for i, ex := range experiments {
		var st pageState
		if i == 0 {
			st = open("") // the URL it was opened with
		} else {
			st = open("#" + ex.hash)
		}
		if st.Done != "ok" {
			t.Errorf("#%s: the page ends in %q: %s", ex.hash, st.Done, st.Error)
			continue
		}
		var args []string
		if err := json.Unmarshal([]byte(st.Args), &args); err != nil {
			t.Errorf("#%s: the result's command line %q: %v", ex.hash, st.Args, err)
			continue
		}
		if !slices.Equal(args, ex.args) {
			t.Errorf("#%s: the page ran %q; want %q", ex.hash, args, ex.args)
		}
		if !strings.HasPrefix(st.Headline, ex.headline) {
			t.Errorf("#%s: headline %q; want it to start %q", ex.hash, st.Headline, ex.headline)
		}
		// Under the go policy the answer names whose costs it rests on, as
		// the CLI names the calibration.
		if goPolicy := !strings.Contains(ex.hash, "sched=fifo"); goPolicy != strings.HasPrefix(st.Because, "Under the go policy for an unnamed host's runtime costs: ") {
			t.Errorf("#%s: the answer's words %q; want them to open naming the go policy's costs exactly where it is the go policy", ex.hash, st.Because)
		}
		// Whose costs, said under the headline.
		policy := evaluate[string](t, page, `document.getElementById("policy").textContent`)
		if want := map[bool]string{true: "Under the go policy for an unnamed host's", false: "Under the fifo policy: idealized CPUs"}[!strings.Contains(ex.hash, "sched=fifo")]; !strings.HasPrefix(policy, want) {
			t.Errorf("#%s: under the headline %q; want it to start %q", ex.hash, policy, want)
		}
		_, frag, _ := strings.Cut(st.Link, "#")
		link := strings.Split(frag, "&")
		for _, kv := range append(strings.Split(ex.hash, "&"), "mode="+args[2]) {
			if !slices.Contains(link, kv) {
				t.Errorf("#%s: the link to this experiment, %s, lacks %s", ex.hash, st.Link, kv)
			}
		}
		cli := slices.Clone(args)
		if i := slices.Index(cli, "/calibration.json"); i >= 0 {
			cli[i] = filepath.Join(site, "calibration.json")
		}
		want, _ := succeeds(t, noChild(), cli...)
		if strings.TrimSpace(st.Result) != strings.TrimSpace(want) {
			t.Errorf("#%s: the page's #result differs from brewput %s:\npage: %.600s\ncli:  %.600s", ex.hash, strings.Join(cli, " "), st.Result, want)
		}
		// The curve's points come first alone, then each with its causal
		// profile: by the end every CPU count of the talk's 1–6 names what
		// limits it.
		if len(st.Limits) != 6 || slices.ContainsFunc(st.Limits, func(l string) bool { return !strings.HasPrefix(l, "the ") }) {
			t.Errorf("#%s: the curve's limits, once done, are %q; want one named for each of 1–6 CPUs", ex.hash, st.Limits)
		}
		t.Logf("#%s: first answer %s ms, with band and causal profile %s ms, the mode's 1–6 CPU curve %s ms", ex.hash, st.First, st.Point, st.Curve)
	}

	// The schedule's words are brewput schedule's for the same point.
	st := open("#mode=multi-2&cpus=6&sched=fifo&compare=")
	want, _ := succeeds(t, noChild(), "schedule", "--mode", "multi-2", "--cpus", "6", "--sched", "fifo", "--format", "json")
	var ts []struct{ Summary string }
	if err := json.Unmarshal([]byte(want), &ts); err != nil || len(ts) != 1 {
		t.Fatalf("brewput schedule --format json: %v\n%s", err, want)
	}
	if st.Schedule != ts[0].Summary {
		t.Errorf("the page's schedule says %q; brewput schedule says %q", st.Schedule, ts[0].Summary)
	}
	// Its CPUs are numbered as the report's schedule and the CLI's number
	// them, from 0 (issue 42: the playground counted from 1).
	if labels := evaluate[string](t, page, `document.getElementById("schedcanvas").dataset.labels || ""`); labels != "CPU 0,CPU 1,CPU 2,CPU 3,CPU 4,CPU 5" {
		t.Errorf("the schedule's CPUs are labelled %q; want CPU 0 to CPU 5, as the report's", labels)
	}
	// Its steps in the report's colours (issue 42: press, combine and
	// espresso swapped colours between the two pages).
	key := evaluate[[]string](t, page, `[...document.querySelectorAll("#schedkey span")].map((s) => s.style.color)`)
	var report []string
	for _, k := range []string{"grinder", "espresso", "steamer", "combine", ""} {
		c := palette.Steps()[k]
		report = append(report, fmt.Sprintf("rgb(%d, %d, %d)", c.R, c.G, c.B))
	}
	if !slices.Equal(key, report) {
		t.Errorf("the schedule's key colours grind, press, steam, combine and other code %q; want the report's %q", key, report)
	}
	issue42(t, page, url, site, calFile)

	// A YAML system with an error: the CLI's message, line number and all.
	bad := "name: bad\nresources:\n  cashier: 1\nsteps:\n  - name: order\n    duration: 2ms\n    holds: [barista]\n"
	yamlFile := filepath.Join(t.TempDir(), "model.yaml")
	if err := os.WriteFile(yamlFile, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := brewput(t.Context(), t, noChild(), "model", "--model", yamlFile, "--cpus", "4", "--calibration", calFile, "--format", "json")
	if code != exitUsage {
		t.Fatalf("brewput model --model with %q: exit %d; want %d", bad, code, exitUsage)
	}
	st = open("#cpus=4&model=" + base64URL(bad))
	if st.Done != "error" {
		t.Errorf("a bad YAML file: the page ends in %q", st.Done)
	}
	if wantErr := strings.ReplaceAll(strings.TrimSpace(stderr), yamlFile, "/model.yaml"); st.Error != wantErr {
		t.Errorf("a bad YAML file: the page says %q; the CLI %q", st.Error, wantErr)
	}
	// The report beside it links each mode to it, opened on that mode
	// and CPU count: written into the shared site's folder, by this test
	// alone.
	tmp := filepath.Dir(site)
	points := filepath.Join(tmp, "points.json")
	succeeds(t, noChild(), "model", "--modes", "finelocking,multi-2", "--cpus", "1-3", "--sched", "fifo", "--band=false", "--out", points)
	reportDir := filepath.Join(tmp, "report")
	succeeds(t, noChild(), "report", points, "--out", reportDir)
	html, err := os.ReadFile(filepath.Join(reportDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`class="try" href="([^"]+)"`).FindAllSubmatch(html, -1)
	if len(links) != 2 {
		t.Fatalf("the report has %d \"try it\" links; want one for each of its 2 modes", len(links))
	}
	for i, l := range links {
		href := strings.ReplaceAll(string(l[1]), "&amp;", "&")
		target := "file://" + filepath.Join(reportDir, href)
		// The first from another page, so that the link loads the
		// playground anew; the second followed from there, as from a
		// page's link, which changes only the state in the URL (both
		// links loaded anew, with the report's model run, took 5.3 CPU-s).
		if i == 0 {
			err = chromedp.Do(page.Ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(target))
		} else {
			_, err = chromedp.Run(page.Ctx, chromedp.Evaluate[int](fmt.Sprintf(`delete document.body.dataset.done; location.href = %q; 0`, target)))
		}
		if err != nil {
			t.Fatal(err)
		}
		st := open("")
		mode := regexp.MustCompile(`mode=([\w-]+)`).FindStringSubmatch(href)[1]
		if want := mode + " on 3 CPUs: "; !strings.HasPrefix(st.Headline, want) {
			t.Errorf("the report's link %s opens %q; want %q", href, st.Headline, want)
		}
		if !strings.Contains(st.Args, `"--sched","fifo"`) {
			t.Errorf("the report's link %s runs %s; want the report's policy, fifo", href, st.Args)
		}
	}

	if errs := page.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestPlaygroundAnswersAsModel holds the playground's engine
// (modelcli.Playground, which the page calls) to the CLI: for command lines
// of brewput model and schedule as the page writes them, under the fifo
// policy, of several modes, CPU counts, loads and steps, a YAML system and
// mistakes, it prints the same bytes on stdout and stderr, and exits the
// same. TestPlayground holds the page, the engine built for WebAssembly,
// to the CLI on a few of them.
func TestPlaygroundAnswersAsModel(t *testing.T) {
	if race.Enabled {
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	bakery := filepath.Join("testdata", "consistency", "bakery.yaml")
	for _, args := range [][]string{
		{"model", "--modes", "finelocking,multi-2,linearpipe-1", "--cpus", "1-6", "--sched", "fifo", "--format", "json"},
		{"model", "--modes", "locking", "--cpus", "2", "--sched", "fifo", "--par", "4", "--grind", "2ms", "--format", "json"},
		{"model", "--modes", "linearpipe-0,linearpipe-10", "--cpus", "8", "--sched", "fifo", "--jitter", "0.5ms", "--format", "json"},
		{"model", "--modes", "multi-4", "--cpus", "2", "--sched", "fifo", "--rate", "300", "--format", "json"},
		{"model", "--modes", "ideal,multipipe-2", "--cpus", "1-3", "--sched", "fifo", "--band=false", "--causal=false", "--format", "json"},
		{"model", "--model", bakery, "--cpus", "2", "--sched", "fifo", "--format", "json"},
		{"schedule", "--mode", "multi-2", "--cpus", "6", "--sched", "fifo", "--format", "json"},
		{"model", "--modes", "nope", "--sched", "fifo", "--format", "json"},
		{"model", "--model", filepath.Join(t.TempDir(), "none.yaml"), "--sched", "fifo", "--format", "json"},
		{"model", "--modes", "locking", "--cpus", "0", "--sched", "fifo", "--format", "json"},
	} {
		var cliOut, cliErr, engOut, engErr syncBuffer
		cli := runEnv(t.Context(), args, &env{stdin: strings.NewReader(""), stdout: &cliOut, stderr: &cliErr, child: noChild()})
		engine := modelcli.Playground(t.Context(), args, &engOut, &engErr)
		if cli != engine || cliOut.String() != engOut.String() || cliErr.String() != engErr.String() {
			t.Errorf("brewput %s: the CLI exits %d, the engine %d\nCLI stdout:    %.300q\nengine stdout: %.300q\nCLI stderr:    %q\nengine stderr: %q",
				strings.Join(args, " "), cli, engine, cliOut.String(), engOut.String(), cliErr.String(), engErr.String())
		}
		if cli == exitOK && cliOut.String() == "" {
			t.Errorf("brewput %s printed nothing", strings.Join(args, " "))
		}
	}
}

// TestPlaygroundBudget holds the site brewput playground writes, all its
// files, to playground.Budget: each is downloaded before the first answer.
func TestPlaygroundBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly engine")
	}
	endToEnd(t)
	t.Parallel()
	site, _, _, _ := sharedPlayground(t)
	entries, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	var sizes []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
		sizes = append(sizes, fmt.Sprintf("%s %d", e.Name(), info.Size()))
	}
	t.Logf("the site: %d bytes (%s)", total, strings.Join(sizes, ", "))
	if len(entries) < 4 || total > playground.Budget {
		t.Errorf("the site holds %d bytes in %d files (%s); want index.html, app.js, engine.js and calibration.json, at most %d bytes in all",
			total, len(entries), strings.Join(sizes, ", "), playground.Budget)
	}
}

// base64URL is the page's encoding of a YAML text in its URL.
func base64URL(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// evaluate is the value of a JavaScript expression on the page.
func evaluate[T any](t *testing.T, page *testkit.Page, expr string) T {
	t.Helper()
	v, err := chromedp.Run(page.Ctx, chromedp.Evaluate[T](expr))
	if err != nil { // the page lacks what expr reads: said, and the checks go on
		t.Errorf("%s: %v", expr, err)
	}
	return v
}

// issue42 holds the playground to what issue 42 found wrong with it, each
// check failing on the page as it was: the talk's view as the front door,
// a bound no figure passes, the arrivals' plural, the YAML editor's text,
// the schedule of a YAML system, one colour per mode from link to link,
// and tick labels.
func issue42(t *testing.T, page *testkit.Page, url, site, calFile string) {
	t.Helper()
	wait := func(what string) {
		t.Helper()
		if err := page.Poll(`!!document.body.dataset.done`, 3*time.Minute); err != nil {
			t.Fatalf("%s: the page did not finish: %v", what, err)
		}
		if done := evaluate[string](t, page, `document.body.dataset.done`); done != "ok" {
			t.Fatalf("%s: the page ends in %q: %s", what, done, evaluate[string](t, page, `document.getElementById("error").textContent`))
		}
	}
	openHash := func(hash string) {
		t.Helper()
		evaluate[int](t, page, fmt.Sprintf(`delete document.body.dataset.done; location.hash = %q; 0`, hash))
		wait(hash)
	}
	type legendEntry struct {
		Mode   string `json:"mode"`
		Colour string `json:"colour"`
	}
	legend := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, e := range evaluate[[]legendEntry](t, page, `[...document.querySelectorAll("#legend span[data-mode]")].map((s) => ({mode: s.dataset.mode, colour: s.dataset.colour}))`) {
			out[e.Mode] = e.Colour
		}
		return out
	}

	// The front door: no state in the URL opens the talk's study, its
	// eight modes on 1–6 CPUs under fifo, finelocking chosen on 6, and
	// draws its third chart, the designs compared on 6 CPUs.
	if err := chromedp.Do(page.Ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	wait("the page with no state")
	talk := []string{"ideal", "locking", "finelocking", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"}
	if h := evaluate[string](t, page, `document.getElementById("headline").textContent`); !strings.HasPrefix(h, "finelocking on 6 CPUs: 1,000 lattes/s") {
		t.Errorf("with no state the page answers %q; want the talk's finelocking on 6 CPUs under fifo, 1,000 lattes/s", h)
	}
	if a := evaluate[string](t, page, `document.getElementById("result").dataset.args`); !strings.Contains(a, `"--sched","fifo"`) {
		t.Errorf("with no state the page runs %s; want the fifo policy", a)
	}
	talkColours := legend()
	if got := slices.Sorted(maps.Keys(talkColours)); !slices.Equal(got, slices.Sorted(slices.Values(talk))) {
		t.Errorf("with no state the charts draw %q; want the talk's eight modes %q", got, talk)
	}
	distinct := map[string]string{}
	for m, c := range talkColours {
		if other, ok := distinct[c]; ok {
			t.Errorf("%s and %s are both drawn %s", m, other, c)
		}
		distinct[c] = m
		if want := palette.Hex(palette.Modes([]string{m}, coffee.Declared{})[m]); c != want {
			t.Errorf("%s is drawn %s; want its colour on the report, %s", m, c, want)
		}
	}
	if ticks := evaluate[[]string](t, page, `[...document.querySelectorAll("#thrchart .xtick")].map((e) => e.textContent)`); !slices.Equal(ticks, []string{"1", "2", "3", "4", "5", "6"}) {
		t.Errorf("the throughput chart's CPU ticks are %q; want one at each of 1–6", ticks)
	}
	if n := evaluate[int](t, page, `document.querySelectorAll("#thrchart line.chosen, #latchart line.chosen").length`); n != 2 {
		t.Errorf("%d charts against CPUs mark the chosen count; want both", n)
	}
	if last := evaluate[string](t, page, `([...document.querySelectorAll("#thrchart path.series")].pop() || {dataset: {}}).dataset.mode || ""`); last != "finelocking" {
		t.Errorf("the chosen mode, finelocking, is drawn under %s; want it on top", last)
	}
	// Lines that coincide are each seen (issue 103: under fifo four of the
	// eight lay under others, finelocking's over the three pipelines',
	// multipipe-2's over ideal's and multi-2's): none is drawn under a later
	// one of the same path unless striped apart from it; and the page names
	// those drawn as one.
	type lineDrawn struct{ Chart, Mode, D, Dash, Offset string }
	var drawn []lineDrawn
	for _, chart := range []string{"thrchart", "latchart"} {
		drawn = append(drawn, evaluate[[]lineDrawn](t, page, `[...document.querySelectorAll("#`+chart+` path.series")].map((p) => ({Chart: "`+chart+`", Mode: p.dataset.mode,
			D: p.getAttribute("d"), Dash: p.getAttribute("stroke-dasharray") || "", Offset: p.getAttribute("stroke-dashoffset") || ""}))`)...)
	}
	shared := 0
	for i, a := range drawn {
		for _, b := range drawn[i+1:] {
			if a.Chart != b.Chart || a.D != b.D {
				continue
			}
			shared++
			if b.Dash == "" || a.Dash == b.Dash && a.Offset == b.Offset {
				t.Errorf("%s: %s is drawn under %s, on the same path", a.Chart, a.Mode, b.Mode)
			}
		}
	}
	if shared == 0 {
		t.Errorf("no two of the talk's eight lines share a path under fifo on 1–6 CPUs; finelocking's and the pipelines' did")
	}
	if note := evaluate[string](t, page, `document.getElementById("samenote").textContent`); !strings.Contains(note, "finelocking, linearpipe-0, linearpipe-1 and linearpipe-10") {
		t.Errorf("the charts' note %q does not name finelocking and the pipelines as drawn on one line", note)
	}
	// Its words call no relief that gains nothing the best (issue 103:
	// "best: grinding 10 % faster, +0.0 %").
	if because := evaluate[string](t, page, `document.getElementById("because").textContent`); !strings.Contains(because, "No single relief raises throughput") || strings.Contains(because, "+0.0 %)") {
		t.Errorf("finelocking on 6 CPUs under fifo, whose machines bind together: %q; want it to say that no single relief raises throughput, naming none best", because)
	}
	bars := evaluate[[]string](t, page, `[...document.querySelectorAll("#cmpthr rect.bar")].map((e) => e.dataset.mode)`)
	boxes := evaluate[[]string](t, page, `[...document.querySelectorAll("#cmplat g.box")].map((e) => e.dataset.mode)`)
	if !slices.Equal(bars, talk) || !slices.Equal(boxes, talk) {
		t.Errorf("the comparison on 6 CPUs draws bars for %q and latency boxes for %q; want both for the talk's %q, in its order", bars, boxes, talk)
	}
	if title := evaluate[string](t, page, `document.getElementById("cmptitle").textContent`); !strings.Contains(title, "6 CPUs") {
		t.Errorf("the comparison is titled %q; want it to name the 6 CPUs", title)
	}
	// Tick labels a step apart, written at the step's precision: not
	// "0.00", nor 62.5 beside 188.
	for _, chart := range []string{"thrchart", "latchart", "cmpthr", "cmplat"} {
		labels := evaluate[[]string](t, page, `[...document.querySelectorAll("#`+chart+` .ytick")].map((e) => e.textContent)`)
		if len(labels) < 2 || labels[0] != "0" {
			t.Errorf("%s's value ticks %q; want them to start at 0, written \"0\"", chart, labels)
			continue
		}
		var step float64
		for i, l := range labels[1:] {
			v, err := strconv.ParseFloat(strings.ReplaceAll(l, ",", ""), 64)
			if err != nil {
				t.Errorf("%s's tick %q: %v", chart, l, err)
				break
			}
			if i == 0 {
				step = v
			}
			if math.Abs(v-step*float64(i+1)) > 1e-9*v {
				t.Errorf("%s's value ticks %q are not a step apart", chart, labels)
				break
			}
		}
	}

	// Another link, other modes beside it: each mode keeps its colour.
	openHash("#mode=multipipe-2&cpus=4&sched=fifo&compare=locking,parsteam")
	other := legend()
	if got := slices.Sorted(maps.Keys(other)); !slices.Equal(got, []string{"locking", "multipipe-2", "parsteam"}) {
		t.Errorf("multipipe-2 beside locking and parsteam: the legend names %q", got)
	}
	for m, c := range other {
		if want, ok := talkColours[m]; ok && c != want {
			t.Errorf("%s is %s on one link and %s on another", m, want, c)
		}
		if want := palette.Hex(palette.Modes([]string{m}, coffee.Declared{})[m]); c != want {
			t.Errorf("%s is drawn %s; want its colour on the report, %s", m, c, want)
		}
	}

	// The arrivals are not counted as machines: multi-4's lines made them
	// "the 4 arrivalss".
	openHash("#mode=multi-4&cpus=2&sched=fifo&rate=300&compare=")
	if because := evaluate[string](t, page, `document.getElementById("because").textContent`); strings.Contains(because, "arrivalss") || !strings.Contains(because, "The arrivals limit it") {
		t.Errorf("multi-4 at 300 arrivals a second: %q; want \"The arrivals limit it\"", because)
	}

	// The YAML editor holds the example as written: html/template escaped
	// it, and the editor showed "talk&#39;s".
	example, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "examples", "cafe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if yaml := evaluate[string](t, page, `document.getElementById("yaml").value`); yaml != string(example) {
		t.Errorf("the YAML editor holds %.200q; want examples/cafe.yaml as written, %.200q", yaml, example)
	}

	// The talk step by step: each step's link opens its experiment, and
	// its sentences quote the figure the headline gives, from the same
	// points; a state that is no step has none.
	steps := evaluate[[]string](t, page, `[...document.querySelectorAll("#tour a")].map((a) => a.getAttribute("href"))`)
	if len(steps) != 6 {
		t.Errorf("the talk's path has %d steps, want 6: %q", len(steps), steps)
	}
	limitedBy := 0
	for _, hash := range steps {
		openHash(hash)
		head := evaluate[string](t, page, `document.getElementById("headline").textContent`)
		say := evaluate[string](t, page, `document.getElementById("tourtext").textContent`)
		figure := regexp.MustCompile(`: ([\d,.]+) lattes/s`).FindStringSubmatch(head)
		if figure == nil || !strings.Contains(say, figure[1]+" ") {
			t.Errorf("step %s: its sentences %q do not quote the headline's figure (%q)", hash, say, head)
		}
		// What limits it on 6 CPUs in the table's words, the causal
		// profile's: the step of a lock per machine called the bound's
		// resource, "the grinder", "the wall" beside a table's "the
		// grinder, the espresso machine and the steamer together".
		if _, named, ok := strings.Cut(say, "limited by "); ok {
			limitedBy++
			six := evaluate[string](t, page, `[...document.querySelectorAll("#limits tbody tr")].filter((tr) => tr.querySelector("td").textContent === "6").map((tr) => tr.querySelector("td:nth-child(4)").textContent)[0] || ""`)
			if six == "" || !strings.HasPrefix(named, six) {
				t.Errorf("step %s says %q; its table names the limit on 6 CPUs %q", hash, say, six)
			}
		}
	}
	if limitedBy < 3 {
		t.Errorf("%d of the talk's steps say what limits their mode on 6 CPUs; want those of a lock per machine, two of each and two pipelines", limitedBy)
	}
	openHash("#mode=finelocking&cpus=3&sched=fifo")
	if say := evaluate[string](t, page, `document.getElementById("tourtext").textContent`); say != "" {
		t.Errorf("finelocking on 3 CPUs, no step of the talk, says %q", say)
	}

	// Locking on 2 CPUs under today's runtime: two humps, the median on a
	// knife edge; the answer says so with the spread, where fifo's exact
	// 8 ms says nothing of it.
	openHash("#mode=locking&cpus=2&sched=go&compare=")
	if because := evaluate[string](t, page, `document.getElementById("because").textContent`); !strings.Contains(because, "spread wide: the middle half of the lattes took") {
		t.Errorf("locking on 2 CPUs under the go policy does not say its latencies spread: %q", because)
	}
	openHash("#mode=locking&cpus=2&sched=fifo&compare=")
	if because := evaluate[string](t, page, `document.getElementById("because").textContent`); strings.Contains(because, "spread wide") {
		t.Errorf("locking on 2 CPUs under fifo, every latte 8 ms, says its latencies spread: %q", because)
	}

	// A YAML system after the shop: no schedule titled for the shop's last
	// point, nor an untitled one.
	bakery, err := os.ReadFile(filepath.Join("testdata", "consistency", "bakery.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	openHash("#cpus=2&sched=fifo&model=" + base64URL(string(bakery)))
	if shown := evaluate[string](t, page, `(() => { const s = document.getElementById("schedule"); return s.getClientRects().length ? s.innerText : ""; })()`); shown != "" {
		t.Errorf("a YAML system shows a schedule, which brewput schedule cannot draw for it: %.200q", shown)
	}
	// The bakery counts 334 loaves in a second its oven bounds at 333.3:
	// the bound is shown rounded up, so that no figure passes it, and the
	// figure past the exact bound is marked with its reason.
	head := evaluate[string](t, page, `document.getElementById("headline").textContent`)
	because := evaluate[string](t, page, `document.getElementById("because").textContent`)
	figure := regexp.MustCompile(`: ([\d,.]+) loaves/s`).FindStringSubmatch(head)
	bound := regexp.MustCompile(`at most ([\d,.]+) loaves/s`).FindStringSubmatch(because)
	if figure == nil || bound == nil {
		t.Fatalf("the bakery's headline %q and words %q: want a figure and an \"at most\" bound", head, because)
	}
	if number(t, figure[1]) > number(t, bound[1]) {
		t.Errorf("the bakery's headline says %s loaves/s beside \"at most %s\"", figure[1], bound[1])
	}
	type limitRow struct {
		CPUs, Figure, Bound string
		Marked              bool
	}
	rows := evaluate[[]limitRow](t, page, `[...document.querySelectorAll("#limits tbody tr")].map((tr) => ({CPUs: tr.cells[0].textContent, Figure: tr.cells[1].textContent.replace(/[^\d,.]/g, ""), Bound: tr.cells[2].textContent, Marked: tr.cells[1].classList.contains("above")}))`)
	if len(rows) != 6 {
		t.Errorf("the bakery's limits table has %d rows; want 1–6 CPUs", len(rows))
	}
	marked := 0
	for _, r := range rows {
		if number(t, r.Figure) > number(t, r.Bound) {
			t.Errorf("the bakery on %s CPUs: %s loaves/s beside a bound of %s", r.CPUs, r.Figure, r.Bound)
		}
		if r.Marked {
			marked++
		}
	}
	if marked == 0 {
		t.Errorf("no figure of the bakery's table is marked past its bound; its JSON says 334 a second passes 333.3")
	}
}

// number reads a figure as the page writes it, "1,000".
func number(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		t.Fatalf("the figure %q: %v", s, err)
	}
	return v
}

// phoneWidth and phoneHeight are a phone's screen in CSS pixels, an
// iPhone 14's; legiblePx the smallest text a chart may show on it.
const (
	phoneWidth, phoneHeight = 390, 844
	legiblePx               = 10
)

// TestPlaygroundOnPhone opens the playground on a phone's screen, as
// issue 57 found it there (its controls began at y = 3,814 of a 4,552 px
// page, below every chart): the answer on the first screen, and from
// anywhere on the page, the bottom included, the controls one tap away on
// the bar at the top, opened in view without scrolling; at a desktop's
// width the bar is not there and the controls beside the answer. With
// BREWPUT_SCREENSHOT set (a path with NAME in it), it saves what it saw.
func TestPlaygroundOnPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly engine")
	}
	endToEnd(t)
	testkit.Chromium(t)
	// Every command here is given its calibration (or the fifo policy,
	// which needs none), so none reads the user's config folder: beside
	// the other tests.
	t.Parallel()
	site, _, _, _ := sharedPlayground(t)
	url := "file://" + filepath.Join(site, "index.html") + "#mode=finelocking&cpus=6&sched=fifo"

	type box struct{ Top, Bottom, Left, Right float64 }
	browser := chromium.Browser(t)
	for _, screen := range []struct {
		name          string
		width, height int
	}{{"phone", phoneWidth, phoneHeight}, {"desktop", 1280, 900}} {
		t.Run(screen.name, func(t *testing.T) {
			page := browser.Page(t, screen.width, screen.height)
			if err := chromedp.Do(page.Ctx, chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			if err := page.Poll(`!!document.body.dataset.done`, 2*time.Minute); err != nil {
				t.Fatalf("the page did not finish: %v", err)
			}
			rect := func(id string) box {
				t.Helper()
				return evaluate[box](t, page, `(() => { const r = document.getElementById("`+id+`").getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right} })()`)
			}
			inView := func(b box) bool {
				return b.Bottom > b.Top && b.Top >= 0 && b.Bottom <= float64(screen.height) && b.Left >= 0 && b.Right <= float64(screen.width)
			}
			// The answer first.
			if h := rect("headline"); !inView(h) {
				t.Errorf("the answer's headline is at %+v; want it on the first screen, %dx%d", h, screen.width, screen.height)
			}
			if w := evaluate[int](t, page, `document.documentElement.scrollWidth`); w > screen.width {
				t.Errorf("the page is %d px wide on a %d px screen", w, screen.width)
			}
			shoot(t, page, "first")
			// Every chart readable where it is shown: its smallest text at
			// legiblePx or more, none of its text cut off at its edges,
			// within the screen's width. At 390 px the charts drawn for
			// 520 showed their text at 8.4 px.
			type chartText struct {
				ID              string
				Smallest, Width float64
				Texts           int
				Outside         []string
			}
			charts := evaluate[[]chartText](t, page, `["thrchart", "latchart", "cmpthr", "cmplat"].map((id) => {
				const svg = document.getElementById(id), box = svg.getBoundingClientRect(), scale = svg.getScreenCTM().a;
				const texts = [...svg.querySelectorAll("text")];
				const outside = texts.filter((e) => { const r = e.getBoundingClientRect(); return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1 }).map((e) => e.textContent);
				return {ID: id, Smallest: Math.min(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize) * scale)), Width: box.width, Outside: outside, Texts: texts.length};
			})`)
			for _, c := range charts {
				t.Logf("%s: shown %.0f px wide, its smallest text at %.1f px", c.ID, c.Width, c.Smallest)
				switch {
				case c.Texts == 0:
					t.Errorf("the chart %s shows no text", c.ID)
				case c.Smallest < legiblePx:
					t.Errorf("the chart %s on a %d px screen: its smallest text is shown at %.1f px; want at least %d", c.ID, screen.width, c.Smallest, legiblePx)
				case len(c.Outside) > 0:
					t.Errorf("the chart %s: its texts %q run past its edges", c.ID, c.Outside)
				case c.Width > float64(screen.width):
					t.Errorf("the chart %s is %.0f px wide on a %d px screen", c.ID, c.Width, screen.width)
				}
			}
			// The schedule is drawn at the width it is shown, its text at
			// its own size: drawn 980 px wide, at 390 px its 11 px text
			// showed at 4.
			sched := evaluate[struct{ Drawn, Shown float64 }](t, page, `(() => { const c = document.getElementById("schedcanvas");
				c.scrollIntoView({block: "center"}); return {Drawn: c.width / devicePixelRatio, Shown: c.clientWidth} })()`)
			if sched.Shown > float64(screen.width) || math.Abs(sched.Drawn-sched.Shown) > 1 {
				t.Errorf("the schedule is drawn %.0f px wide and shown %.0f px wide on a %d px screen; want it drawn as shown", sched.Drawn, sched.Shown, screen.width)
			}
			shoot(t, page, "schedule")
			evaluate[bool](t, page, `window.scrollTo(0, 0), true`)
			if screen.name == "desktop" {
				if evaluate[bool](t, page, `!!document.getElementById("bar").getClientRects().length`) {
					t.Error("a desktop's screen shows the phone's bar")
				}
				if c := rect("cpus"); !inView(c) {
					t.Errorf("the CPUs' control is at %+v; want it beside the answer on the first screen", c)
				}
				return
			}
			// The bar says what is simulated, at the top of the screen
			// wherever the reader is: here, at the bottom of the page.
			if s := evaluate[string](t, page, `document.getElementById("barsummary").textContent`); s != "finelocking · 6 CPUs · fifo" {
				t.Errorf("the bar says %q; want \"finelocking · 6 CPUs · fifo\"", s)
			}
			height := evaluate[int](t, page, `window.scrollTo(0, document.documentElement.scrollHeight); document.documentElement.scrollHeight`)
			scrolled := evaluate[float64](t, page, `window.scrollY`)
			button := rect("barbutton")
			if !inView(button) || button.Top > 60 {
				t.Errorf("at the bottom of the page (%d px tall), the bar's button is at %+v; want it at the top of the screen", height, button)
			}
			// One tap opens the controls in view, the page not scrolled.
			evaluate[bool](t, page, `document.getElementById("barbutton").click(), true`)
			if now := evaluate[float64](t, page, `window.scrollY`); now != scrolled {
				t.Errorf("opening the controls scrolled the page from %.0f to %.0f", scrolled, now)
			}
			for _, id := range []string{"family", "cpus", "par", "grind"} {
				c := rect(id)
				hit := evaluate[bool](t, page, fmt.Sprintf(`(() => { const e = document.getElementById(%q), r = e.getBoundingClientRect();
					return e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)) })()`, id))
				if id == "grind" { // further down the controls: reachable by scrolling them, not the page
					hit = evaluate[bool](t, page, `(() => { const e = document.getElementById("grind"); e.scrollIntoView({block: "center"});
						const r = e.getBoundingClientRect(); return e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)) })()`)
					c = rect(id)
				}
				if !inView(c) || !hit {
					t.Errorf("after the bar's button, the control #%s is at %+v (on top: %v); want it in view, uncovered", id, c, hit)
				}
			}
			shoot(t, page, "controls")
			// A change there is simulated, and the bar says so.
			evaluate[bool](t, page, `(() => { const c = document.getElementById("cpus"); delete document.body.dataset.done; c.value = "3"; c.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
			if err := page.Poll(`!!document.body.dataset.done`, 2*time.Minute); err != nil {
				t.Fatalf("3 CPUs: the page did not finish: %v", err)
			}
			if s := evaluate[string](t, page, `document.getElementById("barsummary").textContent`); s != "finelocking · 3 CPUs · fifo" {
				t.Errorf("after choosing 3 CPUs the bar says %q", s)
			}
			evaluate[bool](t, page, `document.getElementById("barbutton").click(), true`)
			if evaluate[bool](t, page, `document.body.classList.contains("controlsopen")`) {
				t.Error("the bar's button, tapped again, leaves the controls open")
			}
			if h := evaluate[string](t, page, `document.getElementById("headline").textContent`); !strings.HasPrefix(h, "finelocking on 3 CPUs: ") {
				t.Errorf("after choosing 3 CPUs the answer is %q", h)
			}
			if errs := page.Errors(); len(errs) > 0 {
				t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// shoot saves the page's screen as a PNG where BREWPUT_SCREENSHOT names a
// path (NAME in it replaced by the test's name and what), for a person to
// look at.
func shoot(t *testing.T, page *testkit.Page, what string) {
	t.Helper()
	dump := os.Getenv("BREWPUT_SCREENSHOT")
	if dump == "" {
		return
	}
	shot, err := chromedp.Run(page.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	name := strings.ReplaceAll(t.Name(), "/", "-") + "-" + what
	if err := os.WriteFile(strings.ReplaceAll(dump, "NAME", name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}
