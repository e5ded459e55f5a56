package sweep

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// openPty opens a pseudo-terminal cols wide: its terminal end, for the
// progress to draw its bar on, and the other, to read what it drew.
func openPty(t *testing.T, cols uint16) (term, ptm *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: cols}); err != nil {
		t.Fatal(err)
	}
	return term, ptm
}

// TestProgressBarFitsTheTerminal draws the bar on a terminal 80 columns
// wide, as the main job does, with the longest description it gives (a
// point's mode, CPUs and label, its round, the times), a retry message
// between points, and reads what reached the screen: no line, as the
// terminal shows it after each carriage return, over 80 columns.
func TestProgressBarFitsTheTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "") // the terminal's own width
	term, ptm := openPty(t, 80)
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() { io.Copy(&shown, ptm); close(read) }()
	st := Batch[testSpec]{Specs: []testSpec{
		{Config: "linearpipe-10", Label: "another grinder + another espresso machine + another steamer", Load: Load{CPUs: 64, Load: results.Load{Dur: time.Second}}},
		{Config: "multipipe-2", Load: Load{CPUs: 2, Load: results.Load{Dur: time.Second}}}},
		Count: 6, Retry: Retry{Attempts: 4, Wait: 5 * time.Second}}
	p := NewProgress(term, text.SweepWords{}, st, 0)
	if p.bar == nil {
		t.Fatal("no bar drawn on a terminal")
	}
	p.Start(st.Specs[0].Entry(), 3)
	p.Say("linearpipe-10 cpus=64: disturbed (other processes took 1.28 CPUs of its 64 CPUs): measuring again after waiting 5.1s for a quiet machine (still busy), attempt 2 of 4")
	p.Done([]results.Point{{Spec: results.Spec{Mode: "linearpipe-10", CPUs: 64}, Throughput: 998, Unit: "lattes/s"}})
	p.Start(st.Specs[1].Entry(), 3)
	p.Tick()
	p.Finish(nil)
	term.Close()
	ptm.SetReadDeadline(time.Now().Add(2 * time.Second))
	<-read
	screen := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAllString(shown.String(), "")
	var drawn int
	for _, line := range strings.FieldsFunc(screen, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if strings.Contains(line, "%") {
			drawn++
		}
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns on an 80-column terminal: %q", n, line)
		}
	}
	if drawn == 0 || !strings.Contains(screen, "linearpipe-10 cpus=64") || !strings.Contains(screen, "attempt 2 of 4") {
		t.Errorf("the terminal showed no bar, or not the point and the retry:\n%q", screen)
	}
}
