package testkit

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/race"
)

// Chromium finds a Chromium to drive, or says why the browser tests cannot
// run: they are end to end, run by .ci/run (BREWPUT_E2E=1) or a -run naming
// them, not under the race detector; they fail under CI (which installs
// Debian's chromium) and skip on a machine without one.
func Chromium(t testing.TB) string {
	t.Helper()
	if race.Enabled {
		t.Skip("the pages are checked in the plain run: under the race detector their work is Chromium's and the model's")
	}
	if run := flag.Lookup("test.run"); os.Getenv("BREWPUT_E2E") != "1" && (run == nil || run.Value.String() == "") {
		t.Skip("a page in a browser, end to end: .ci/run runs it (BREWPUT_E2E=1), as does go test -run naming it")
	}
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

// Page is a browser tab, with every error its pages logged.
type Page struct {
	Ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// Browser is a headless Chromium whose tabs are the tests' pages.
type Browser struct{ ctx context.Context }

// Shared is one Browser for a test process: starting one took as much CPU
// time as a page's checks. The zero value is ready; TestMain closes it
// after m.Run.
type Shared struct {
	once   sync.Once
	b      *Browser
	cancel context.CancelFunc
	err    error
}

// Browser is the shared Chromium, started by its first caller, or skips t
// where there is none (Chromium).
func (s *Shared) Browser(t testing.TB) *Browser {
	t.Helper()
	path := Chromium(t)
	s.once.Do(func() {
		// The browser tests once hung until go test's 10-minute limit
		// (CI, just after Chromium was installed; where, unseen): a start
		// is given startLimit, and one more try.
		for try := 0; try < 2; try++ {
			if s.b, s.cancel, s.err = start(path); s.err == nil {
				return
			}
		}
	})
	if s.err != nil {
		t.Fatalf("start Chromium: %v", s.err)
	}
	return s.b
}

// startLimit is how long a Chromium may take to start with a first tab.
const startLimit = 90 * time.Second

// start starts a headless Chromium with a first tab, or kills it where
// that took longer than startLimit.
func start(path string) (*Browser, context.CancelFunc, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox will not start
		chromedp.WindowSize(1400, 1600),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	cancel := func() { cancelBrowser(); cancelAlloc() }
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(bctx) }()
	select {
	case err := <-done:
		if err != nil {
			cancel()
			return nil, nil, err
		}
		return &Browser{ctx: bctx}, cancel, nil
	case <-time.After(startLimit):
		cancel()
		<-done
		return nil, nil, fmt.Errorf("no first tab after %v", startLimit)
	}
}

// Close ends the shared Chromium, where one was started.
func (s *Shared) Close() error {
	if s.b == nil {
		return nil
	}
	err := chromedp.Cancel(s.b.ctx)
	s.cancel()
	return err
}

// Page opens a tab of width × height CSS pixels, closed when the test ends.
func (b *Browser) Page(t testing.TB, width, height int) *Page {
	t.Helper()
	tctx, cancelTab := chromedp.NewContext(b.ctx)
	t.Cleanup(func() {
		if err := chromedp.Cancel(tctx); err != nil && b.ctx.Err() == nil {
			t.Errorf("close a tab of Chromium: %v", err)
		}
		cancelTab()
	})
	p := &Page{Ctx: tctx}
	err := chromedp.Listen(tctx, func(ev any) { // opens the tab
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				args := collect.Mapped(ev.Args, func(a *runtime.RemoteObject) string { return string(a.Value) + a.Description })
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
			p.mu.Lock()
			p.errors = append(p.errors, msg)
			p.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("open a tab of Chromium: %v", err)
	}
	// A window is at least 500 px wide: emulate a phone's screen.
	if err := chromedp.Do(tctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("open a tab of Chromium at %dx%d: %v", width, height, err)
	}
	return p
}

// Errors are what the tab's pages logged so far: console errors, uncaught
// exceptions, log entries such as a file that did not load.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.errors)
}

// Poll waits up to timeout for the JavaScript cond to be true, three tries
// in all where a poll begun as a navigation ends asks for the replaced
// document ("Cannot find context with specified id").
func (p *Page) Poll(cond string, timeout time.Duration) error {
	var err error
	for try := 0; try < 3; try++ {
		if _, err = chromedp.Run(p.Ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(timeout))); err == nil ||
			!strings.Contains(err.Error(), "Cannot find context with specified id") {
			return err
		}
	}
	return err
}
