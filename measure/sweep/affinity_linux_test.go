package sweep

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFormatCPUs(t *testing.T) {
	for want, ids := range map[string][]int{"": nil, "0": {0}, "0-1": {0, 1}, "0-2,5,7-8": {0, 1, 2, 5, 7, 8}} {
		if got := FormatCPUs(ids); got != want {
			t.Errorf("FormatCPUs(%v) = %q, want %q", ids, got, want)
		}
	}
}

// TestRunChildTimeLimit: a child that does not answer within its limit
// (here one that sleeps, as a stopped or stuck one would) is killed and
// its point fails, saying so, well before the child would have ended.
func TestRunChildTimeLimit(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	start := time.Now()
	_, err = RunChild(context.Background(), sleep, []string{"60"}, nil, 1, time.Second, struct{}{})
	if err == nil || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("RunChild of a child that never answers = %v, want a failure past its time limit", err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("RunChild took %v: the child was not killed at its limit", took)
	}
}

// TestPinnedChildOutlivesItsThread: a pinned child is set to die with
// its parent, and lives while its parent does, though the thread that
// forked it was narrowed to its CPUs and is not the runtime's again.
func TestPinnedChildOutlivesItsThread(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	cmd := exec.Command(sleep, "60")
	if err := StartPinned(cmd, 1); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if cmd.SysProcAttr == nil || cmd.SysProcAttr.Pdeathsig != syscall.SIGKILL {
		t.Errorf("a pinned child is not set to die with its parent: %+v", cmd.SysProcAttr)
	}
	select {
	case err := <-done:
		t.Fatalf("the pinned child ended at once (%v): killed as its forking thread exited", err)
	case <-time.After(300 * time.Millisecond):
	}
	cmd.Process.Kill()
	<-done
}

// pinnedHelperEnv makes this test binary the parent TestPinnedChildDies
// kills: it starts a pinned sleep, prints its id and waits.
const pinnedHelperEnv = "BREWPUT_PINNED_HELPER"

// TestPinnedChildDies: killed outright (SIGKILL), a process's pinned child
// dies with it.
func TestPinnedChildDies(t *testing.T) {
	if os.Getenv(pinnedHelperEnv) == "1" {
		cmd := exec.Command("sleep", "60")
		if err := StartPinned(cmd, 1); err != nil {
			t.Fatal(err)
		}
		fmt.Println(cmd.Process.Pid)
		cmd.Wait()
		return
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestPinnedChildDies$")
	parent.Env = append(os.Environ(), pinnedHelperEnv+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("the helper printed no child id: %v", err)
	}
	parent.Process.Kill()
	parent.Wait()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("the pinned child %d outlived its parent, killed outright, by a minute", pid)
}
