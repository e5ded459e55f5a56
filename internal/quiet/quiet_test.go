package quiet

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestOwnWorkIsNotOthers burns one CPU in this process: the busy time that
// rises is this process's own, so Others must not count it. Run alone it
// reads near 0; whatever else the machine runs only adds to it, so the test
// bounds the figure by what the machine had besides the burn.
func TestOwnWorkIsNotOthers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU accounting is read on Linux only")
	}
	idle := Probe(300 * time.Millisecond)
	before := Take()
	var wg sync.WaitGroup
	wg.Go(func() {
		for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		}
	})
	wg.Wait()
	others := Since(before)
	t.Logf("others while idle %.2f CPUs, while this process burned one %.2f", idle, others)
	if others > idle+0.5 {
		t.Errorf("this process's own burn counted as others: %.2f CPUs (idle %.2f)", others, idle)
	}
}

// TestOthersCountsAnotherProcess runs a busy loop in another process
// (this test binary, re-executed) and checks that Others sees it.
func TestOthersCountsAnotherProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU accounting is read on Linux only")
	}
	if os.Getenv("QUIET_BURN") != "" {
		for start := time.Now(); time.Since(start) < 2*time.Second; {
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOthersCountsAnotherProcess$")
	cmd.Env = append(os.Environ(), "QUIET_BURN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	time.Sleep(200 * time.Millisecond) // past the child's start-up
	others := Probe(500 * time.Millisecond)
	t.Logf("others while another process burned one CPU: %.2f", others)
	if others < 0.6 {
		t.Errorf("another process burning one CPU counted as %.2f CPUs, want about 1", others)
	}
}

func TestOthersInvalid(t *testing.T) {
	if got := Others(Sample{}, Sample{}); got != 0 {
		t.Errorf("Others of invalid samples = %v, want 0", got)
	}
}
