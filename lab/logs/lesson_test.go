package logs

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/brewput/brewput/internal/guard"
	"github.com/brewput/brewput/results"
)

// lessonSkips skips a timing lesson where its timing means nothing, and
// returns a folder for its logs on the file system the test uses.
func lessonSkips(t *testing.T) string {
	t.Helper()
	guard.Timing(t, 1)
	dir := t.TempDir()
	if onTmpfs(dir) {
		t.Skipf("%s is on tmpfs, where an fsync waits for nothing", dir)
	}
	return dir
}

// TestLessonSerializedLog: with an fsync per append, the file log's lock
// is held for the whole fsync, and 8 writers wait in line for it. They get
// no more appends through than one writer, and the sum of the latencies
// they time is several times the wall time: about t times, as the model
// says. See maxSerialGain for what a 2-CPU machine measured.
func TestLessonSerializedLog(t *testing.T) {
	dir := lessonSkips(t)
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs")
	}
	c := Config{Kinds: []Kind{File}, Writers: []int{1, 8}, Appends: 600, ValueBytes: 100, Sync: true, Dir: dir, Reps: 3}
	guard.Retry(t, func() error {
		ps, err := Run(context.Background(), c, []int{2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		one, eight := ps[0], ps[1]
		t.Logf("%s: 1 writer %.0f appends/s; 8 writers %.0f (%.0f%% of 1), latency sum %.1f× the wall time",
			one.Variant, one.Throughput, eight.Throughput, 100*eight.Metrics["of_single"], eight.Metrics["overstatement"])
		if r := eight.Metrics["of_single"]; r > maxSerialGain {
			return fmt.Errorf("8 writers reach %.2f× one writer's throughput through a serialized log, want at most %.2f×", r, maxSerialGain)
		}
		if o := eight.Metrics["overstatement"]; o < minOverstatement8 {
			return fmt.Errorf("8 writers' latencies add up to %.2f× the wall time, want at least %.1f×", o, minOverstatement8)
		}
		return nil
	})
}

// The limits of TestLessonSerializedLog. On a 2-CPU virtual machine (Xeon
// at 2.5 GHz, ext4 on a virtual disk, Go 1.26; fsyncs of 0.1 to 0.3 ms),
// file-sync with 8 writers measured 56 to 93 % of the single writer's
// throughput, and latency sums 5.7 to 7.9 times the wall time. A
// serialized log cannot beat one writer by more than the little work done
// outside its lock; 8 writers that always wait reach 8×, and Go's mutex,
// which lets a running writer take the lock again before a waiting one
// wakes, keeps them a little below.
const (
	maxSerialGain     = 1.3
	minOverstatement8 = 4.0
)

// TestLessonSyncCost: an fsync per append makes the file and LevelDB logs
// at least 10 times slower for one writer: the append waits for the disk,
// not for memory. On the machine of maxSerialGain the file log measured 65
// to 90 times slower with sync, the LevelDB log 23 to 70 times.
func TestLessonSyncCost(t *testing.T) {
	dir := lessonSkips(t)
	c := Config{Kinds: []Kind{File, LevelDB}, Writers: []int{1}, Appends: 20_000, ValueBytes: 100, Dir: dir, Reps: 3}
	cs := c
	cs.Sync, cs.Appends = true, 500
	guard.Retry(t, func() error {
		fast, err := Run(context.Background(), c, []int{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		synced, err := Run(context.Background(), cs, []int{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range synced {
			r := fast[i].Throughput / p.Throughput
			t.Logf("%s: %s, %s: %s: %.0f×", fast[i].Variant, results.FormatRate(fast[i].Throughput, Unit), p.Variant, results.FormatRate(p.Throughput, Unit), r)
			if r < minSyncCost {
				return fmt.Errorf("%s is %.1f× as fast as %s, want at least %.0f×", fast[i].Variant, r, p.Variant, minSyncCost)
			}
		}
		return nil
	})
}

// minSyncCost is the least slowdown TestLessonSyncCost accepts from an
// fsync per append.
const minSyncCost = 10.0
