//go:build unix

package driver

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalEndsARendering signals report, compare and fit while they read
// a file that never ends (a named pipe nobody finishes writing, as a
// huge file would keep them reading): each ends with the signal's status
// and writes nothing.
func TestSignalEndsARendering(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"report", "{pipe}", "--out", "{dir}/r"}, {"compare", "{pipe}", "{pipe}"}, {"fit", "{pipe}"}} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pipe := filepath.Join(dir, "endless.bench")
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			var argv []string
			for _, a := range args {
				argv = append(argv, strings.NewReplacer("{pipe}", pipe, "{dir}", dir).Replace(a))
			}
			cmd, _, stderr := startBrewput(t, argv...)
			// Open the writing end and keep it open: the reader blocks.
			w, err := os.OpenFile(pipe, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.WriteString("goos: linux\n"); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			select {
			case err := <-ended:
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 128+int(syscall.SIGTERM) {
					t.Errorf("brewput %q after SIGTERM: %v, want exit status %d; stderr:\n%s", argv, err, 128+int(syscall.SIGTERM), stderr)
				}
			case <-time.After(time.Minute):
				t.Fatalf("brewput %q still running a minute after SIGTERM", argv)
			}
			if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
				t.Errorf("brewput %q wrote its output after SIGTERM", argv)
			}
			noStrays(t, dir)
		})
	}
}
