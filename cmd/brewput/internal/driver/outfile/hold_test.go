package outfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// holderEnv makes the test binary a process that holds the path the
// variable names, says so on stdout, and waits to be killed.
const holderEnv = "BREWPUT_HOLD_TEST_HOLDER"

func TestMain(m *testing.M) {
	if path := os.Getenv(holderEnv); path != "" {
		h, err := Take(path)
		if err != nil {
			os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("held\n")
		// Until killed, keeping the hold: a hold no one refers to may be
		// collected, and its file closed, which lets go of the lock.
		for {
			time.Sleep(time.Hour)
			runtime.KeepAlive(h)
		}
	}
	goleak.VerifyTestMain(m)
}

func TestTakeRefusesASecondHolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	h, err := Take(out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Take(out)
	var held *Held
	if !errors.As(err, &held) {
		t.Fatalf("a second Take: %v, want a *Held", err)
	}
	if held.PID != os.Getpid() || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), "another --out") {
		t.Errorf("the refusal %q (pid %d) does not name the output, this process and what to do", err, held.PID)
	}
	h.Release()
	h.Release() // again: nothing
	if _, err := os.Stat(HoldFile(out)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Release left the lock file: %v", err)
	}
	again, err := Take(out)
	if err != nil {
		t.Fatalf("Take after Release: %v", err)
	}
	again.Release()
}

// A lock file whose process is gone (killed before it could remove it)
// holds nothing.
func TestTakeOverALeftLockFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(HoldFile(out), []byte("999999999\nbrewput run --out r.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := Take(out)
	if err != nil {
		t.Fatalf("a lock file no process holds blocked Take: %v", err)
	}
	b, _ := os.ReadFile(HoldFile(out))
	if !strings.HasPrefix(string(b), strconv.Itoa(os.Getpid())+"\n") {
		t.Errorf("the lock file says %q, not this process", b)
	}
	h.Release()
}

// A real process holds the output; another is refused and told its pid;
// killed with SIGKILL, it blocks no one.
func TestHolderKilled(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holderEnv+"="+out)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("the holder said %q", line)
	}
	_, err = Take(out)
	var held *Held
	if !errors.As(err, &held) || held.PID != cmd.Process.Pid || !strings.Contains(held.Command, os.Args[0]) {
		t.Fatalf("Take beside a live holder: %v, want it refused naming pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	h, err := Take(out)
	if err != nil {
		t.Fatalf("Take after the holder was killed: %v", err)
	}
	h.Release()
}

// A lock whose signer is dead is held only by a child the signer was
// starting, until that child's exec closes it: Take waits for it rather
// than refuse a run in the name of a dead process.
func TestTakeWaitsOutADeadHoldersChild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(HoldFile(out), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := lock(f); !got || err != nil {
		t.Fatalf("the child's lock: %v, %v", got, err)
	}
	if _, err := f.WriteString(strconv.Itoa(dead.Process.Pid) + "\nbrewput\n"); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		time.Sleep(20 * time.Millisecond)
		f.Close()
	}()
	h, err := Take(out)
	<-closed
	if err != nil {
		t.Fatalf("Take beside a dead signer's lock let go within 20 ms: %v", err)
	}
	h.Release()
}

// An output in folders that do not exist yet is held all the same; the
// folders made for the hold go with it where the run wrote nothing.
func TestHoldInNewFolders(t *testing.T) {
	base := t.TempDir()
	h, err := Take(filepath.Join(base, "a", "b", "report"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Take(filepath.Join(base, "a", "b", "report")); err == nil {
		t.Errorf("a second Take of an output in new folders was not refused")
	}
	h.Release()
	if _, err := os.Stat(filepath.Join(base, "a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folders made for the hold are still there: %v", err)
	}
}

// TestTakeRefusesLinks: an output that is a symbolic link, and a lock file
// planted as one, are refused, and what they point to is left as it was.
func TestTakeRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "lnk.json")
	if err := os.Symlink(victim, out); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if h, err := Take(out); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		h.Release()
		t.Errorf("Take of a link: %v, want it refused", err)
	}
	planted := filepath.Join(dir, "o.json")
	if err := os.Symlink(victim, HoldFile(planted)); err != nil {
		t.Fatal(err)
	}
	if h, err := Take(planted); err == nil || !strings.Contains(err.Error(), "lock file") {
		h.Release()
		t.Errorf("Take with a planted lock file: %v, want it refused", err)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "precious\n" {
		t.Errorf("the link's target holds %q (%v), want it untouched", b, err)
	}
	// A folder named by a link is refused too: its files would be moved.
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o755)
	link := filepath.Join(dir, "linkdir")
	os.Symlink(real, link)
	if h, err := Take(link); err == nil {
		h.Release()
		t.Error("Take of a link to a folder: held, want it refused")
	}
}
