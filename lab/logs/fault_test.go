package logs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv tells a re-executed test binary to be the writer that
// TestKilledWriter kills: "kind,sync,path".
const childEnv = "BREWPUT_LOGS_KILLED_WRITER"

// faultValue is the i-th value the killed writer appends.
func faultValue(i int) []byte {
	v := make([]byte, 64)
	fill(v, 7, 0)
	fill(v, 7, i)
	return v
}

// TestKilledWriter kills a process with SIGKILL while it appends, one
// value after another, to a file or LevelDB log, with and without sync,
// and reopens the log. The process prints each index once Append has
// returned it: an acknowledged append. The log must open cleanly and hold
// exactly the values appended, in order, from index 0: a prefix, with no
// garbage and no gap. It must hold every acknowledged append, and at most
// one more (the append made but not yet printed when the signal came).
//
// Every acknowledged append is there with and without sync: both kinds
// hand each append to the operating system with a write system call
// before Append returns, and the kernel keeps what a killed process
// wrote. What sync adds, an fsync per append, is for the machine failing
// as well, which a test cannot bring about.
func TestKilledWriter(t *testing.T) {
	if spec := os.Getenv(childEnv); spec != "" {
		killedWriter(spec)
		return
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs SIGKILL")
	}
	for _, kind := range []Kind{File, LevelDB} {
		for _, synced := range []bool{false, true} {
			t.Run(Variant(kind, synced), func(t *testing.T) {
				t.Parallel()
				killMidRun(t, kind, synced)
			})
		}
	}
}

// killMidRun starts the writer, kills it once it has acknowledged some
// appends, and checks what it left.
func killMidRun(t *testing.T, kind Kind, synced bool) {
	path := filepath.Join(t.TempDir(), "log")
	// Enough acknowledged appends that the kill lands well into the run:
	// a few milliseconds of appending with sync, and without.
	killAfter := 2000
	if synced {
		killAfter = 100
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%t,%s", childEnv, kind, synced, path))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := 0
	killed := false
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		num, ok := strings.CutPrefix(lines.Text(), "ack ")
		if !ok {
			continue // not the writer's: the test binary's own output
		}
		i, err := strconv.Atoi(num)
		if err != nil || i != acked {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the writer printed %q after %d acknowledged appends, want %d", lines.Text(), acked, acked)
		}
		acked++
		if acked == killAfter && !killed {
			// Go's Kill is SIGKILL: no chance to flush or close anything.
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !killed || !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the writer ended with %v after %d acknowledged appends, not by SIGKILL; its stderr:\n%s", err, acked, stderr.String())
	}

	lg, err := New(kind, synced)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	if err := lg.Open(path); err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer lg.Close()
	n := lg.Len()
	cut := ""
	if f, ok := lg.(*FileLog); ok {
		cut = fmt.Sprintf(", %d bytes of torn tail cut", before.Size()-f.size)
	}
	t.Logf("killed after %d acknowledged appends; the log holds %d%s", acked, n, cut)
	if n < acked || n > acked+1 {
		t.Errorf("the log holds %d values after %d acknowledged appends; want %d or %d", n, acked, acked, acked+1)
	}
	for i := range n {
		if got, err := lg.Get(i); err != nil || !bytes.Equal(got, faultValue(i)) {
			t.Fatalf("index %d after the kill: %x, %v; want the writer's append %d", i, got, err, i)
		}
	}
	// The log goes on where it stopped.
	if index, err := lg.Append([]byte("after")); err != nil || index != n {
		t.Errorf("Append after the kill: index %d, %v; want %d", index, err, n)
	}
}

// killedWriter is the process TestKilledWriter kills: it appends to the
// log spec names and prints each index Append returns ("ack 12"), until
// it is killed. It gives up after 20 s, or when its output is gone, in
// case its parent died first.
func killedWriter(spec string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	parts := strings.SplitN(spec, ",", 3)
	if len(parts) != 3 {
		fail(fmt.Errorf("%s=%q: want kind,sync,path", childEnv, spec))
	}
	lg, err := New(Kind(parts[0]), parts[1] == "true")
	if err != nil {
		fail(err)
	}
	if err := lg.Open(parts[2]); err != nil {
		fail(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		index, err := lg.Append(faultValue(i))
		if err != nil {
			fail(err)
		}
		if index != i {
			fail(fmt.Errorf("append %d got index %d", i, index))
		}
		// One write per line, unbuffered: the parent reads each
		// acknowledgement as soon as it is made.
		if _, err := fmt.Fprintf(os.Stdout, "ack %d\n", i); err != nil {
			fail(err)
		}
	}
	fail(errors.New("not killed within 20 s"))
}
