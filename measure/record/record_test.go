package record

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"go.uber.org/goleak"

	"github.com/brewput/brewput/results"
)

// goleak checks that Stop and Abort leave no tracing or profiling
// goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// hold takes mu and keeps it for d: a helper that waits for whichever lock
// it is given, as a coffee machine's use method does, so that the summary
// must name its callers to tell the locks apart.
func hold(mu *sync.Mutex, d time.Duration, waited *time.Duration) {
	asked := time.Now()
	mu.Lock()
	*waited += time.Since(asked)
	time.Sleep(d)
	mu.Unlock()
}

// waitsTally adds up, independently of the profile, how long the test's
// goroutines waited.
type waitsTally struct {
	mu  sync.Mutex
	sum time.Duration
}

func (w *waitsTally) add(d time.Duration) {
	w.mu.Lock()
	w.sum += d
	w.mu.Unlock()
}

// contend makes workers goroutines take grinder rounds times, then, all
// together, steamer rounds times, each holding a lock for d, and returns
// how long they waited for each lock in total, as they measured it
// themselves.
func contend(workers, rounds int, d time.Duration) (grinderWait, steamerWait time.Duration) {
	var grinder, steamer sync.Mutex
	var g, s waitsTally
	var wg, ready sync.WaitGroup
	ready.Add(workers)
	for range workers {
		wg.Go(func() {
			var gw, sw time.Duration
			for range rounds {
				hold(&grinder, d, &gw)
			}
			ready.Done()
			ready.Wait()
			for range rounds {
				hold(&steamer, d, &sw)
			}
			g.add(gw)
			s.add(sw)
		})
	}
	wg.Wait()
	return g.sum, s.sum
}

// starve makes a goroutine receive n values, each sent after a pause of d,
// and returns how long the receiver waited in total.
func starve(n int, d time.Duration) time.Duration {
	ch := make(chan int)
	var waited time.Duration
	var wg sync.WaitGroup
	wg.Go(func() {
		for range n {
			asked := time.Now()
			<-ch
			waited += time.Since(asked)
		}
	})
	for i := range n {
		time.Sleep(d)
		ch <- i
	}
	wg.Wait()
	return waited
}

// TestSessionProfilesTheWindow runs a program that waits on two mutexes
// and a channel inside a session, after some waits before it, and checks
// the files and the summary: the mutex waits at each lock's own call
// site, the channel's, nothing from before the session, and totals close
// to what the goroutines measured themselves.
func TestSessionProfilesTheWindow(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "shop-2cpu")

	// Waits before the session, recorded (the rate is up) but not the
	// window's: the summary must not show them.
	runtime.SetBlockProfileRate(1)
	starveBefore(t)

	s, err := Start(base)
	if err != nil {
		t.Fatal(err)
	}
	grinderWait, steamerWait := contend(3, 8, 2*time.Millisecond)
	chanWait := starve(10, 3*time.Millisecond)
	files, err := s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if files != FilesFor(base) || files.Trace != base+".trace" || files.Block != base+".block.pprof" {
		t.Errorf("Stop returned %+v, want the files of %s", files, base)
	}

	// The four files, whole and readable by all, and nothing else.
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
		if info, err := e.Info(); err == nil && info.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", e.Name(), info.Mode().Perm())
		}
	}
	if want := "shop-2cpu.block.pprof shop-2cpu.cpu.pprof shop-2cpu.mutex.pprof shop-2cpu.trace"; strings.Join(names, " ") != want {
		t.Errorf("the folder holds %v, want %s", names, want)
	}
	for _, path := range []string{files.CPU, files.Block, files.Mutex} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		readable(t, data) // fails t where pprof cannot parse it
	}
	trace, err := os.ReadFile(files.Trace)
	if err != nil || !bytes.HasPrefix(trace, []byte("go 1.")) || len(trace) < 1000 {
		t.Errorf("%s: %d bytes starting %q, %v; want an execution trace", files.Trace, len(trace), trace[:min(len(trace), 16)], err)
	}

	f, err := os.Open(files.Block)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	waits, err := Summarize(f, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range waits {
		t.Logf("%-12s %8.3f ms %4d waits  %s", w.Kind, w.TotalMs, w.Count, w.Site)
	}
	find := func(kind, text string) results.Wait {
		t.Helper()
		for _, w := range waits {
			if w.Kind == kind && strings.Contains(w.Site, text) {
				return w
			}
		}
		t.Errorf("no %s wait at a site with %q", kind, text)
		return results.Wait{}
	}
	grinder := find(KindMutex, "hold(&grinder, d, &gw) in record.contend.func1 at record/record_test.go:")
	steamer := find(KindMutex, "hold(&steamer, d, &sw) in record.contend.func1 at record/record_test.go:")
	ch := find(KindChanReceive, "<-ch in record.starve.func1 at record/record_test.go:")
	for _, c := range []struct {
		name string
		w    results.Wait
		self time.Duration
	}{{"grinder", grinder, grinderWait}, {"steamer", steamer, steamerWait}, {"channel", ch, chanWait}} {
		// The profile counts from when a goroutine parks, the goroutine
		// from when it asked (spinning included): a little less.
		self := results.Ms(c.self)
		if c.w.TotalMs < 0.6*self || c.w.TotalMs > 1.05*self+1 {
			t.Errorf("%s: the profile says %.2f ms of waits, the goroutines measured %.2f ms", c.name, c.w.TotalMs, self)
		}
		if c.w.Count < 1 || c.w.PerOpMs != c.w.TotalMs/10 {
			t.Errorf("%s: %d waits, %.3f ms per op of %.3f ms; want some, and the total over 10 ops", c.name, c.w.Count, c.w.PerOpMs, c.w.TotalMs)
		}
	}
	if ch.Count != 10 && ch.Count != 9 {
		t.Errorf("the receiver waited %d times, want 10 (or 9, had one send come first)", ch.Count)
	}
	for _, w := range waits {
		if strings.Contains(w.Site, "starveBefore") {
			t.Errorf("the summary holds a wait from before the session: %+v", w)
		}
	}
	for i := 1; i < len(waits); i++ {
		if waits[i].TotalMs > waits[i-1].TotalMs {
			t.Errorf("waits not sorted longest first: %v", waits)
		}
	}
}

// starveBefore waits on a channel of its own, to be told apart.
func starveBefore(t *testing.T) {
	t.Helper()
	ch := make(chan int)
	go func() {
		time.Sleep(5 * time.Millisecond)
		ch <- 1
	}()
	<-ch
	var block bytes.Buffer
	pprof.Lookup("block").WriteTo(&block, 0)
	if !strings.Contains(readable(t, block.Bytes()), "starveBefore") {
		t.Fatal("the runtime recorded no wait before the session; the test cannot tell whether Stop subtracts it")
	}
}

// readable lists a profile's function names.
func readable(t *testing.T, data []byte) string {
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range p.Function {
		names = append(names, f.Name)
	}
	return strings.Join(names, "\n")
}
