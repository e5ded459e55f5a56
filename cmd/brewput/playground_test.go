package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/internal/mainjob"
	"github.com/brewput/brewput/internal/testkit"
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
	if testing.Short() {
		t.Skip("builds the WebAssembly engine")
	}
	testkit.Chromium(t)
	emptyConfig(t)
	calFile := fixedCalibration(t)
	tmp := t.TempDir()
	site := filepath.Join(tmp, mainjob.PlaygroundDir)
	stdout, _ := succeeds(t, noChild(), "playground", "--out", site, "--calibration", calFile)
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

	page := testkit.NewPage(t, 1280, 1600, 8*time.Minute)
	url := "file://" + filepath.Join(site, "index.html")
	open := func(hash string) pageState {
		t.Helper()
		if hash != "" { // "" waits for the page as it was opened
			if _, err := chromedp.Run(page.Ctx, chromedp.Evaluate[int](fmt.Sprintf(`delete document.body.dataset.done; location.hash = %q; 0`, hash))); err != nil {
				t.Fatalf("open %s: %v", hash, err)
			}
		}
		if _, err := chromedp.Run(page.Ctx, chromedp.Poll[bool](`!!document.body.dataset.done`, chromedp.WithPollingTimeout(3*time.Minute))); err != nil {
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
	if err := chromedp.Do(page.Ctx, chromedp.Navigate(url+"#mode=finelocking&cpus=6&sched=fifo")); err != nil {
		t.Fatal(err)
	}
	experiments := []struct {
		hash     string
		args     []string
		headline string
	}{
		{"mode=finelocking&cpus=6&sched=fifo", []string{"model", "--modes", "finelocking", "--cpus", "6", "--sched", "fifo", "--format", "json"}, "finelocking on 6 CPUs: "},
		{"mode=multi-2&cpus=4", []string{"model", "--modes", "multi-2", "--cpus", "4", "--calibration", "/calibration.json", "--format", "json"}, "multi-2 on 4 CPUs: "},
		{"mode=linearpipe-1&cpus=3&runtime=go1.9", []string{"model", "--modes", "linearpipe-1", "--cpus", "3", "--runtime", "go1.9", "--calibration", "/calibration.json", "--format", "json"}, "linearpipe-1 on 3 CPUs: "},
		{"mode=locking&cpus=2&sched=fifo&par=4&grind=2", []string{"model", "--modes", "locking", "--cpus", "2", "--sched", "fifo", "--par", "4", "--grind", "2ms", "--format", "json"}, "locking on 2 CPUs: "},
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
		// profile: by the end every CPU count names what limits it.
		if len(st.Limits) < 16 || slices.ContainsFunc(st.Limits, func(l string) bool { return !strings.HasPrefix(l, "the ") }) {
			t.Errorf("#%s: the curve's limits, once done, are %q; want one named for each of 1–16 CPUs", ex.hash, st.Limits)
		}
		t.Logf("#%s: first answer %s ms, with band and causal profile %s ms, the mode's 1–16 CPU curve %s ms", ex.hash, st.First, st.Point, st.Curve)
	}

	// The schedule's words are brewput schedule's for the same point.
	st := open("#mode=multi-2&cpus=6&sched=fifo")
	want, _ := succeeds(t, noChild(), "schedule", "--mode", "multi-2", "--cpus", "6", "--sched", "fifo", "--format", "json")
	var ts []struct{ Summary string }
	if err := json.Unmarshal([]byte(want), &ts); err != nil || len(ts) != 1 {
		t.Fatalf("brewput schedule --format json: %v\n%s", err, want)
	}
	if st.Schedule != ts[0].Summary {
		t.Errorf("the page's schedule says %q; brewput schedule says %q", st.Schedule, ts[0].Summary)
	}

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
	// and CPU count.
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
	for _, l := range links {
		href := strings.ReplaceAll(string(l[1]), "&amp;", "&")
		// From another page, so that the link loads the playground anew.
		if err := chromedp.Do(page.Ctx, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+filepath.Join(reportDir, href))); err != nil {
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

// base64URL is the page's encoding of a YAML text in its URL.
func base64URL(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
