package report

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee/coffeetest"
	"github.com/brewput/brewput/internal/testkit"

	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// The page is judged as a person sees it on a wide screen: pageWidth CSS
// pixels across, the first screen firstScreen tall, and the whole default
// study's page at most maxHeight tall.
const (
	pageWidth   = 1400
	firstScreen = 900
	maxHeight   = 6000
)

// browserPage is a page opened in headless Chromium, with every error it
// logged.
type browserPage struct {
	ctx  context.Context
	page *testkit.Page
}

// openInBrowser opens the file at path in a tab of the shared headless
// Chromium and collects the errors the page reports (testkit.Page).
func openInBrowser(t *testing.T, path string) *browserPage {
	t.Helper()
	return openSized(t, path, pageWidth, firstScreen)
}

// openSized opens the file at path as openInBrowser does, on a screen of
// width × height CSS pixels.
func openSized(t *testing.T, path string, width, height int) *browserPage {
	t.Helper()
	p := chromium.Browser(t).Page(t, width, height)
	bctx := p.Ctx
	if err := chromedp.Do(bctx,
		chromedp.Navigate("file://"+path),
		chromedp.WaitReady("body"),
	); err != nil {
		t.Fatalf("open %s in Chromium: %v", path, err)
	}
	// Let images decode and late errors arrive.
	if err := p.Poll(`Array.from(document.images).every(i => i.complete)`, 10*time.Second); err != nil {
		t.Fatalf("images of %s did not load: %v", path, err)
	}
	if err := chromedp.Do(bctx, chromedp.Sleep(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	return &browserPage{ctx: bctx, page: p}
}

func (bp *browserPage) loggedErrors() []string { return bp.page.Errors() }

// colourFraction is the share of an image's pixels in colour, neither
// white nor grey nor black: a chart that drew nothing but its frame, its
// ticks and its labels has none, whatever their antialiasing.
func colourFraction(img image.Image) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x3000 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

// shownImage screenshots the image sel names as the page shows it, or
// fails the test saying why there is none.
func shownImage(t *testing.T, bp *browserPage, sel string) (image.Image, bool) {
	t.Helper()
	size, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]int](
		`(() => { const i = document.querySelector("`+sel+`"); return i ? [i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight] : [] })()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(size) != 4 {
		t.Errorf("no %s on the page", sel)
		return nil, false
	}
	if size[0] < 300 || size[1] < 150 || size[2] < 300 || size[3] < 150 {
		t.Errorf("%s: natural %dx%d, shown %dx%d; want a decoded image at least 300x150 on screen", sel, size[0], size[1], size[2], size[3])
		return nil, false
	}
	shot, err := chromedp.Run(bp.ctx, chromedp.Screenshot(sel, chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", sel, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", sel, err)
	}
	return img, true
}

// TestPageInBrowser opens a report's index.html in headless Chromium, as a
// person would, and checks what they would see: the answer in the first
// screen, the map of what limits what and the charts drawn with something
// in them, every table within the page's width once opened, the page no
// taller than maxHeight, a table row per point with the model's rows
// marked as such, and no errors; for a study, a study beside a made-up
// prediction of it, and the default study as the main job reports it —
// measured on 1 and 2 CPUs, every point's causal profile, the model's
// predictions on 1 to 8, and the schedule pictures, one of them from a real
// execution trace.
func TestPageInBrowser(t *testing.T) {
	t.Parallel() // each page in a tab of its own, from points of its own
	t.Run("measured", func(t *testing.T) { t.Parallel(); checkPageInBrowser(t, studyPoints(), Options{}) })
	t.Run("with model", func(t *testing.T) {
		t.Parallel()
		checkPageInBrowser(t, append(studyPoints(), modelPoints(16)...), Options{})
	})
	t.Run("default study", func(t *testing.T) {
		t.Parallel()
		testkit.Chromium(t) // skip before simulating, where there is no browser
		points, opt := defaultStudy(t)
		checkPageInBrowser(t, points, opt)
	})
	// The saved samples together, labs with many metrics among them:
	// their tables too must fit.
	t.Run("samples", func(t *testing.T) {
		t.Parallel()
		var points []results.Point
		for _, f := range []string{"shop.json", "model.json", "lab.json"} {
			ps, err := results.ReadFile(filepath.Join("..", "results", "testdata", "samples", f))
			if err != nil {
				t.Fatal(err)
			}
			points = append(points, ps...)
		}
		checkPageInBrowser(t, points, Options{Analysis: analyzed(t, points)})
	})
	// A study of the user's own code, as study.Main reports it (the cache
	// example's, saved from a real run), alone and beside Go benchmarks:
	// the answer first all the same, from measurements only.
	t.Run("study", func(t *testing.T) { t.Parallel(); checkPageInBrowser(t, cacheStudy(t), Options{}) })
	t.Run("study and benchmarks", func(t *testing.T) {
		t.Parallel()
		bench, err := results.ReadFile(filepath.Join("..", "results", "testdata", "gotest-bench.txt"))
		if err != nil {
			t.Fatal(err)
		}
		checkPageInBrowser(t, append(cacheStudy(t), bench...), Options{})
	})
	// A dozen Go benchmarks alone, as brewput bench reports them: their
	// answer first, a family's variants in one chart.
	t.Run("a dozen benchmarks", func(t *testing.T) { t.Parallel(); checkPageInBrowser(t, dozenBenchmarks(t), Options{}) })
}

// defaultStudy is the main job's points on a 2-CPU machine: studyPoints
// with their causal profiles, the model's predictions of the nine modes on
// 1 to 8 CPUs (fifo, which needs no calibration; shorter windows than the
// main job's, for speed), the model's advice for each mode, and the
// schedule pictures, finelocking on 2 CPUs profiled with a real execution
// trace. It is simulated once for the test process (three tests render
// it); each caller gets its own copy of the points.
func defaultStudy(t *testing.T) ([]results.Point, Options) {
	t.Helper()
	s := &sharedStudy
	s.once.Do(func() {
		if s.dir, s.err = os.MkdirTemp("", "brewput-report-test-"); s.err != nil {
			return
		}
		// Where t fails inside, the other callers fail too.
		s.err = errors.New("the default study failed in another test")
		s.points, s.opt = simulateDefaultStudy(t, s.dir)
		s.err = nil
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	return slices.Clone(s.points), s.opt
}

// sharedStudy is defaultStudy's, and the folder of its trace, removed by
// TestMain.
var sharedStudy struct {
	once   sync.Once
	dir    string
	points []results.Point
	opt    Options
	err    error
}

// simulateDefaultStudy is defaultStudy's points and analysis, its trace
// written in dir.
func simulateDefaultStudy(t *testing.T, dir string) ([]results.Point, Options) {
	t.Helper()
	points := studyPoints()
	if err := limits.Annotate(points, limits.Fifo()); err != nil {
		t.Fatal(err)
	}
	var cfgs []model.Config
	for _, m := range testModes {
		for n := 1; n <= 8; n++ {
			cfg := model.DefaultConfig(n)
			cfg.Mode, cfg.Policy.Sched, cfg.Dur = m, "fifo", 300*time.Millisecond
			cfgs = append(cfgs, cfg)
		}
	}
	predicted := profiled(t, cfgs)
	base := filepath.Join(dir, "finelocking-2cpu")
	coffeetest.WriteShopTrace(t, base+".trace", 15) // what --profile writes for a point
	for i, p := range points {
		if p.Mode == "finelocking" && p.CPUs == 2 {
			points[i].Profile = base
		}
	}
	points = append(points, predicted...)
	// The model's advice for each mode, as the main job gives it: its
	// what-if table is the widest on the page.
	a := analyzed(t, points)
	if len(a.Notes) > 0 {
		t.Fatal(a.Notes)
	}
	return points, Options{Analysis: a}
}

func checkPageInBrowser(t *testing.T, points []results.Point, opt Options) {
	if opt.Analysis == nil {
		opt.Analysis = answered(t, points)
	}
	dir := t.TempDir()
	r, err := BuildWith(points, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	bp := openInBrowser(t, filepath.Join(dir, Index))

	// The answer is on the first screen: every sentence of the verdict
	// within its first firstScreen pixels.
	verdict, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]float64](`(() => { window.scrollTo(0, 0);
		return Array.from(document.querySelectorAll("#verdict p.sentence")).map(p => p.textContent.length > 40 ? p.getBoundingClientRect().bottom : -1) })()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(verdict) == 0 {
		t.Error("the page has no verdict")
	}
	for i, bottom := range verdict {
		if bottom < 0 || bottom > firstScreen {
			t.Errorf("verdict sentence %d ends at %.0f px; want it said, within the first %d px", i+1, bottom, firstScreen)
		}
	}

	// Page height as it opens, details closed.
	height, err := chromedp.Run(bp.ctx, chromedp.Evaluate[int](`document.documentElement.scrollHeight`))
	if err != nil {
		t.Fatal(err)
	}
	if height > maxHeight && !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind == results.KindLab }) {
		t.Errorf("page is %d px tall at %d px wide; want at most %d", height, pageWidth, maxHeight)
	}
	t.Logf("page: %d px tall at %d px wide", height, pageWidth)

	rows, err := chromedp.Run(bp.ctx, chromedp.Evaluate[int](`document.querySelectorAll("#points-table tbody tr").length`))
	if err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(bp.ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	others, _ := results.SplitBench(points)
	shop, _, _ := results.SplitLabs(others)
	if rows != len(shop) {
		t.Errorf("points table has %d rows, want one per point of the shop and of studies: %d", rows, len(shop))
	}
	model := 0
	for _, p := range shop {
		if p.IsModel() {
			model++
		}
	}
	// A model row is marked, and looks it: in italics on a tint, its
	// source cell saying "model". The table is collapsed: open it.
	marked, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]string](`(() => { if (!document.querySelector("#points details")) return [];
		document.querySelector("#points details").open = true;
		const out = Array.from(document.querySelectorAll("#points-table tbody tr.model")).map(r => {
		const td = r.querySelector("td"), st = getComputedStyle(td);
		return [td.textContent, st.fontStyle, st.backgroundColor].join("|") });
		document.querySelector("#points details").open = false; return out })()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(marked) != model {
		t.Errorf("%d rows marked model, want %d", len(marked), model)
	}
	for _, m := range marked {
		if m != "model (fifo)|italic|rgb(246, 244, 251)" {
			t.Errorf("model row shows as %q; want its source, in italics on a tint", m)
			break
		}
	}
	if !strings.Contains(title, "brewput") {
		t.Errorf("page title %q does not name brewput", title)
	}

	// Every picture drawn, with data in colour in it: the map of limits
	// in full, the charts' lines and boxes, the schedules' bars.
	least := map[string]float64{"limits": 0.05, "throughput": 0.003, "latency": 0.003, "distribution": 0.003, "comparison": 0.003, "scalability": 0.003}
	for _, f := range r.Files {
		name, ok := strings.CutSuffix(f.Name, ".svg")
		if !ok || strings.HasPrefix(name, "lab-") {
			continue
		}
		want := least[name]
		switch {
		case strings.HasPrefix(name, "schedule-") && strings.HasSuffix(name, "-trace"):
			// A real trace's window holds what the machine let run: on a
			// busy one, a few steps (1 % of the picture once, beside other
			// tests), so drawn data, not an amount.
			want = 0.003
		case strings.HasPrefix(name, "schedule-"):
			want = 0.05 // locking on 2 CPUs keeps one of them busy
		}
		img, ok := shownImage(t, bp, "#chart-"+name+" img")
		if !ok {
			continue
		}
		if got := colourFraction(img); got < want {
			t.Errorf("%s as shown: %.1f %% of it in colour; want visibly drawn data (at least %.1f %%)", name, 100*got, 100*want)
		}
	}
	if len(opt.Analysis.Schedules) > 0 {
		kinds, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#schedule figure.schedule img")).map(i => i.alt)`))
		if err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(kinds, "\n")
		profiled := slices.ContainsFunc(points, func(p results.Point) bool {
			_, err := os.Stat(record.FilesFor(p.Profile).Trace)
			return p.Profile != "" && err == nil
		})
		if !strings.Contains(joined, "model (fifo)") || profiled && !strings.Contains(joined, "execution trace") {
			t.Errorf("schedule pictures %q; want the model's and, for the profiled point, the trace's", kinds)
		}
	}

	// Every table within its container and the page within the window,
	// once every collapsed section is open.
	overflow, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]string](`(() => {
		const ds = Array.from(document.querySelectorAll("details")), was = ds.map(d => d.open);
		ds.forEach(d => d.open = true);
		const bad = [];
		document.querySelectorAll("table").forEach(t => {
			const w = t.getBoundingClientRect().width, room = t.parentElement.clientWidth;
			if (w > room + 1) bad.push((t.id || t.className || "table") + ": " + Math.round(w) + " px in " + room);
		});
		const page = document.documentElement;
		if (page.scrollWidth > page.clientWidth + 1) bad.push("page: " + page.scrollWidth + " px in " + page.clientWidth);
		ds.forEach((d, i) => d.open = was[i]);
		return bad })()`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range overflow {
		t.Errorf("overflows its container at %d px wide: %s", pageWidth, o)
	}

	if dump := os.Getenv("BREWPUT_SCREENSHOT"); dump != "" {
		shot, err := chromedp.Run(bp.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.ReplaceAll(dump, "NAME", strings.ReplaceAll(t.Name(), "/", "-")), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if errs := bp.loggedErrors(); len(errs) > 0 {
		t.Errorf("the page logged %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// TestBrowserCatchesErrors is the control for the test above: a page with
// a broken image and a script error must be caught, or "no errors" would
// prove nothing.
func TestBrowserCatchesErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := `<!DOCTYPE html><html><body><img src="missing.png"><script>console.error("boom"); undefinedFunction();</script></body></html>`
	path := filepath.Join(dir, "broken.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	bp := openInBrowser(t, path)
	errs := strings.Join(bp.loggedErrors(), "\n")
	for _, want := range []string{"boom", "undefinedFunction", "missing.png"} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors caught do not mention %q:\n%s", want, errs)
		}
	}
}

// A phone's screen in CSS pixels (an iPhone 14's), and the smallest text
// a picture may show on it.
const (
	phoneScreenW = 390
	phoneScreenH = 844
	legiblePx    = 10
)

// shownText is what a picture on the page shows of its text: the smallest
// font size in CSS pixels as shown, and the picture's size as shown.
type shownText struct {
	Name          string
	Smallest      float64
	Width, Height int
}

// picturesText reads every picture the page shows (the source it chose,
// the phone's or the page's) and works out the size its smallest text is
// shown at: its font size in the SVG's units, times the width shown over
// the SVG's own.
func picturesText(t *testing.T, bp *browserPage) []shownText {
	t.Helper()
	type shown struct {
		ID, Src       string
		Width, Height int
	}
	imgs, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]shown](`Array.from(document.querySelectorAll("figure img")).map(i => ({ID: i.closest("figure").id, Src: i.currentSrc, Width: i.clientWidth, Height: i.clientHeight}))`))
	if err != nil {
		t.Fatal(err)
	}
	viewBox := regexp.MustCompile(`viewBox="0 0 ([\d.]+) [\d.]+"`)
	fontSize := regexp.MustCompile(`font-size:([\d.]+)px`)
	var out []shownText
	for _, img := range imgs {
		data, ok := strings.CutPrefix(img.Src, "data:image/svg+xml;base64,")
		if !ok {
			t.Errorf("%s shows %.60s; want an SVG inlined in the page", img.ID, img.Src)
			continue
		}
		svg, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			t.Fatalf("%s: %v", img.ID, err)
		}
		vb := viewBox.FindSubmatch(svg)
		if vb == nil {
			t.Fatalf("%s: no viewBox in %.200s", img.ID, svg)
		}
		width, _ := strconv.ParseFloat(string(vb[1]), 64)
		smallest := math.Inf(1)
		for _, m := range fontSize.FindAllSubmatch(svg, -1) {
			size, _ := strconv.ParseFloat(string(m[1]), 64)
			smallest = min(smallest, size)
		}
		out = append(out, shownText{Name: img.ID, Smallest: smallest * float64(img.Width) / width, Width: img.Width, Height: img.Height})
	}
	return out
}

// TestPageOnPhone opens the default study's page, the main job's, on a
// phone's screen and on a desktop's, and checks what issue 57 found on the
// phone: there the map and the three-panel charts shrank until their
// numbers could not be read (the map's at about 3 px). On both: the answer
// on the first screen, the page no wider than the screen, every picture
// drawn with something in colour, and on the phone every picture's
// smallest text shown at legiblePx or more. With BREWPUT_SCREENSHOT set (a
// path with NAME in it), it saves each page whole, for a person to look at.
func TestPageOnPhone(t *testing.T) {
	testkit.Chromium(t) // skip before simulating, where there is no browser
	t.Parallel()
	points, opt := defaultStudy(t)
	dir := t.TempDir()
	r, err := BuildWith(points, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, screen := range []struct {
		name          string
		width, height int
	}{{"phone", phoneScreenW, phoneScreenH}, {"desktop", pageWidth, firstScreen}} {
		t.Run(screen.name, func(t *testing.T) {
			bp := openSized(t, filepath.Join(dir, Index), screen.width, screen.height)
			top, err := chromedp.Run(bp.ctx, chromedp.Evaluate[float64](`(() => { window.scrollTo(0, 0); const p = document.querySelector("#verdict p.sentence"); return p ? p.getBoundingClientRect().top : -1 })()`))
			if err != nil {
				t.Fatal(err)
			}
			if top < 0 || top > float64(screen.height)/2 {
				t.Errorf("the answer's first sentence starts at %.0f px; want it in the first half of the first screen (%d px)", top, screen.height)
			}
			wide, err := chromedp.Run(bp.ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
			if err != nil {
				t.Fatal(err)
			}
			if wide > screen.width {
				past, _ := chromedp.Run(bp.ctx, chromedp.Evaluate[[]string](`Array.from(document.body.querySelectorAll("*")).filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !Array.from(e.children).some(c => c.getBoundingClientRect().right > document.documentElement.clientWidth + 1)).slice(0, 5).map(e => e.tagName + "." + e.className + " " + e.textContent.slice(0, 60))`))
				t.Errorf("the page is %d px wide on a %d px screen: %q", wide, screen.width, past)
			}
			// The answer's table read on the screen's width: no cell of it
			// over five lines (in columns at 390 px, multi-2's limit, five
			// resources together, wrapped to ten and its best change to
			// fourteen).
			type tall struct {
				Text  string
				Lines float64
			}
			cells, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]tall](`Array.from(document.querySelectorAll("table.verdict td")).map(td => {
				const st = getComputedStyle(td), line = parseFloat(st.lineHeight) || 1.2 * parseFloat(st.fontSize);
				const pad = parseFloat(st.paddingTop) + parseFloat(st.paddingBottom);
				return {Text: td.textContent.slice(0, 60), Lines: (td.getBoundingClientRect().height - pad) / line} })`))
			if err != nil {
				t.Fatal(err)
			}
			if len(cells) == 0 {
				t.Error("the page has no answer's table")
			}
			for _, c := range cells {
				if c.Lines > 5.5 {
					t.Errorf("a cell of the answer's table runs to %.0f lines on a %d px screen: %q", c.Lines, screen.width, c.Text)
				}
			}
			shown := picturesText(t, bp)
			if len(shown) < 8 { // the map, two schedules, five charts
				t.Errorf("the page shows %d pictures; want the map, the schedules and the charts", len(shown))
			}
			for _, s := range shown {
				t.Logf("%s: shown %dx%d, its smallest text at %.1f px", s.Name, s.Width, s.Height, s.Smallest)
				if screen.name == "phone" && s.Smallest < legiblePx {
					t.Errorf("%s on a %d px phone: its smallest text is shown at %.1f px; want at least %d", s.Name, screen.width, s.Smallest, legiblePx)
				}
				if s.Width > screen.width {
					t.Errorf("%s is shown %d px wide on a %d px screen", s.Name, s.Width, screen.width)
				}
				if img, ok := shownImage(t, bp, "#"+s.Name+" img"); ok && colourFraction(img) < 0.003 {
					t.Errorf("%s as shown: %.2f %% of it in colour; want visibly drawn data", s.Name, 100*colourFraction(img))
				}
			}
			if dump := os.Getenv("BREWPUT_SCREENSHOT"); dump != "" {
				shot, err := chromedp.Run(bp.ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(strings.ReplaceAll(dump, "NAME", strings.ReplaceAll(t.Name(), "/", "-")), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if errs := bp.loggedErrors(); len(errs) > 0 {
				t.Errorf("the page logged %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
			}
		})
	}
}
