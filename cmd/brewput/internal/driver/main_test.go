package driver

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/testkit"
)

// Exit statuses the tests expect (see package exitcode).
const (
	exitOK          = exitcode.OK
	exitFailure     = exitcode.Fail
	exitUsage       = exitcode.Usage
	exitInterrupted = exitcode.Interrupted
)

// testMainEnv, set to 1 in the environment, makes the test binary act as
// brewput itself: the child process that measures a point is this binary
// with the hidden "point" command.
const testMainEnv = "BREWPUT_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(testMainEnv) == "1" {
		// As main does, signals and all.
		ctx, stop := exitcode.SignalContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	// The model's go policy reads the runtime's costs from the user's config
	// folder, measuring them the first time: keep that in a folder of the
	// tests' own, holding a recorded calibration, so that no test's output
	// depends on how busy this machine is (a busy machine's is not saved,
	// and every run would measure again). Tests of the first measurement
	// give a folder and a measurement of their own (emptyConfig).
	os.Setenv("COLUMNS", columnsUnderTest)
	config, err := os.MkdirTemp("", "brewput-test-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", config)
	recorded, err := os.ReadFile(filepath.Join("testdata", "calibration-2core.json"))
	if err == nil {
		err = os.MkdirAll(filepath.Join(config, "brewput"), 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(config, "brewput", "calibration.json"), recorded, 0o644)
	}
	if err != nil {
		panic(err)
	}
	// Most of these tests wait on what they start (a build, a child
	// process, Chromium) as much as they compute: four at a time, where
	// -parallel's default is GOMAXPROCS, took the package's tests from
	// 78 s to 66 s on the 2-core VM. A -parallel given is kept.
	flag.Parse()
	parallelGiven := false
	flag.Visit(func(f *flag.Flag) { parallelGiven = parallelGiven || f.Name == "test.parallel" })
	if !parallelGiven {
		flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	if err := chromium.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "close Chromium: %v\n", err)
		code = 1
	}
	os.RemoveAll(config)
	removeSharedPlayground()
	removeSharedCalibration()
	removeCacheStudy()
	removeRendered()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// chromium is the one headless Chromium whose tabs are this process's
// pages.
var chromium testkit.Shared

// selfChild measures each point in this test binary acting as brewput.
func selfChild() childCommand {
	return childCommand{path: os.Args[0], args: []string{"point"}, env: []string{testMainEnv + "=1"}}
}

// noChild is a child that cannot start: a test that means to measure
// nothing uses it, so that input wrongly accepted fails fast instead of
// measuring for seconds.
func noChild() childCommand {
	return childCommand{path: "/nonexistent/brewput-test-child", args: []string{"point"}}
}

// syncBuffer is a bytes.Buffer safe to read while brewput writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	// columns, where set, is the width brewput lays out what it writes
	// for (format.Width); COLUMNS (80 in the tests) where 0.
	columns int
	// seen, where set, is called with all written so far after each
	// write, in the writer's goroutine.
	seen func(all string)
}

// Columns is the width the buffer takes lines of, 0 for COLUMNS's.
func (b *syncBuffer) Columns() int { return b.columns }

// unwrapped is the width of stderr in the tests of what a message says,
// not how it is laid out: each message a line (TestEveryCommandFitsEighty
// checks the layout at 80 columns).
const unwrapped = 100000

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	if b.seen != nil {
		b.seen(b.buf.String())
	}
	return n, err
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// interruptAtFirst starts run, a run of three steps, and cancels it once
// it has told the first: it waits, up to 2 minutes (a guard against a
// hang, not a timing), for its stderr to say "[1/3]", cancels its
// context, and checks that it ends interrupted with a last line of stderr
// that says it kept what it says in kept. step names the step in the
// failure of the wait ("point"). It returns what the run wrote.
func interruptAtFirst(t *testing.T, step, kept string, run func(ctx context.Context, stdout, stderr *syncBuffer) int) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	// Interrupted as the first step is told, in the writer's goroutine: a
	// busy machine cannot let the others finish before the test looks.
	errOut := syncBuffer{columns: unwrapped, seen: func(all string) {
		if strings.Contains(all, "[1/3]") {
			cancel()
		}
	}}
	done := make(chan int, 1)
	go func() { done <- run(ctx, &out, &errOut) }()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, errOut.String())
		}
	case <-time.After(2 * time.Minute):
		cancel()
		<-done
		t.Fatalf("no first %s within 2 minutes; stderr:\n%s", step, errOut.String())
	}
	if last := lastLine(errOut.String()); !strings.Contains(last, "interrupted after") || !strings.Contains(last, kept) {
		t.Errorf("last line of stderr %q does not say what was kept", last)
	}
	return out.String(), errOut.String()
}

// oneLine is s with its lines joined and its spaces collapsed: what a
// text says, however it was wrapped.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// brewput runs the program with args and child as the child process, and
// returns its exit status and what it wrote.
func brewput(ctx context.Context, t *testing.T, child childCommand, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return brewputIn(ctx, t, "", child, args...)
}

// brewputIn is brewput with a benchmark's go command run in dir, as if
// the program had started there.
func brewputIn(ctx context.Context, t *testing.T, dir string, child childCommand, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out syncBuffer
	errOut := syncBuffer{columns: unwrapped}
	code = runEnv(ctx, args, &env{dir: dir, stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: child})
	return code, out.String(), errOut.String()
}

// succeeds runs the program with args and child as the child process, and
// fails t unless it exits OK; it returns what the program wrote.
func succeeds(t *testing.T, child childCommand, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := brewput(context.Background(), t, child, args...)
	if code != exitOK {
		t.Fatalf("brewput %q: exit %d; stderr:\n%s", args, code, stderr)
	}
	return stdout, stderr
}
