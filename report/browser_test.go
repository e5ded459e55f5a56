package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium to drive, or says why the browser tests cannot
// run: they fail under CI (which installs Debian's chromium) and skip on a
// developer's machine without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := "no Chromium on PATH (looked for chromium, chromium-browser, google-chrome, headless-shell); install Debian's chromium to run the browser tests"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browserPage is a page opened in headless Chromium, with every error it
// logged.
type browserPage struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// openInBrowser opens the file at path in a fresh headless Chromium and
// collects the errors the page reports: console errors, uncaught
// exceptions and log entries such as a resource that failed to load.
func openInBrowser(t *testing.T, path string) *browserPage {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox will not start
		chromedp.WindowSize(1280, 1000),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		if err := chromedp.Cancel(bctx); err != nil {
			t.Errorf("close Chromium: %v", err)
		}
		cancelBrowser()
	})

	bp := &browserPage{ctx: bctx}
	err := chromedp.Listen(bctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				msg = "console." + string(ev.Type) + ": " + strings.Join(args, " ")
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg = "exception: " + d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				msg = fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		}
		if msg != "" {
			bp.mu.Lock()
			bp.errors = append(bp.errors, msg)
			bp.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	if err := chromedp.Do(bctx,
		chromedp.Navigate("file://"+path),
		chromedp.WaitReady("body"),
	); err != nil {
		t.Fatalf("open %s in Chromium: %v", path, err)
	}
	// Let images decode and late errors arrive.
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("images of %s did not load: %v", path, err)
	}
	if err := chromedp.Do(bctx, chromedp.Sleep(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	return bp
}

func (bp *browserPage) loggedErrors() []string {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	return append([]string(nil), bp.errors...)
}

// inkFraction is the share of an image's pixels that are not near-white,
// and the number of distinct colours among them: a chart that drew
// nothing but its frame has very little ink and one or two colours.
func inkFraction(img image.Image) (ink float64, colours int) {
	b := img.Bounds()
	seen := map[uint32]bool{}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xe800 || g < 0xe800 || bl < 0xe800 {
				n++
				seen[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy()), len(seen)
}

// TestPageInBrowser opens a report's index.html in headless Chromium, as a
// person would, and checks what they would see: three charts drawn with
// something in them, a table row per point, the model's rows marked as
// such, and no errors; for a study, and for a study beside the model's
// prediction of it.
func TestPageInBrowser(t *testing.T) {
	t.Run("measured", func(t *testing.T) { checkPageInBrowser(t, studyPoints()) })
	t.Run("with model", func(t *testing.T) { checkPageInBrowser(t, append(studyPoints(), modelPoints(16)...)) })
}

func checkPageInBrowser(t *testing.T, points []results.Point) {
	dir := t.TempDir()
	r, err := Build(points)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	bp := openInBrowser(t, filepath.Join(dir, Index))

	rows, err := chromedp.Run(bp.ctx, chromedp.Evaluate[int](`document.querySelectorAll("#points-table tbody tr").length`))
	if err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(bp.ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if rows != len(points) {
		t.Errorf("points table has %d rows, want one per point: %d", rows, len(points))
	}
	model := 0
	for _, p := range points {
		if p.IsModel() {
			model++
		}
	}
	// A model row is marked, and looks it: in italics on a tint, its
	// source cell saying "model".
	marked, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#points-table tbody tr.model")).map(r => {
		const td = r.querySelector("td"), st = getComputedStyle(td);
		return [td.textContent, st.fontStyle, st.backgroundColor].join("|") })`))
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

	for _, name := range []string{"throughput", "latency", "distribution", "scalability"} {
		if !slices.ContainsFunc(r.Files, func(f File) bool { return f.Name == name+".svg" }) {
			continue // nothing to draw: the page says so instead (TestOneCPUCountSaysSo)
		}
		sel := "#chart-" + name + " img"
		size, err := chromedp.Run(bp.ctx, chromedp.Evaluate[[]int](
			`(() => { const i = document.querySelector("`+sel+`"); return i ? [i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight] : [] })()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(size) != 4 {
			t.Errorf("no %s chart on the page", name)
			continue
		}
		if size[0] < 300 || size[1] < 200 || size[2] < 300 || size[3] < 200 {
			t.Errorf("%s chart: natural %dx%d, shown %dx%d; want a decoded image at least 300x200 on screen", name, size[0], size[1], size[2], size[3])
			continue
		}
		shot, err := chromedp.Run(bp.ctx, chromedp.Screenshot(sel, chromedp.NodeVisible))
		if err != nil {
			t.Fatalf("screenshot of the %s chart: %v", name, err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatalf("screenshot of the %s chart: %v", name, err)
		}
		// A frame, ticks and labels alone ink about 2 % in one colour; the
		// lines and boxes of nine modes add their colours.
		if ink, colours := inkFraction(img); ink < 0.04 || colours < 10 {
			t.Errorf("%s chart as shown: %.1f %% ink in %d colours; want visibly drawn data (≥ 4 %%, ≥ 10 colours)", name, 100*ink, colours)
		}
	}

	if dump := os.Getenv("BREWPUT_SCREENSHOT"); dump != "" {
		shot, err := chromedp.Run(bp.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dump, shot, 0o644); err != nil {
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
