package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
)

// builtPlayground is the one site brewput playground writes in this test
// process: building its engine (a go build for js/wasm and the gzip of
// it) is the longest step of every test that opens the page, and each
// one's run of the command was the same, so they share it.
var builtPlayground playgroundRun

type playgroundRun struct {
	once           sync.Once
	root           string // removed by TestMain
	site, cal      string
	code           int
	stdout, stderr string
	err            error
}

// sharedPlayground is the site brewput playground --out SITE --calibration
// CAL wrote for this test process, with fixedCalibration's costs in CAL,
// and what it wrote, laid out for 80 columns; it fails t where the run
// did not succeed.
func sharedPlayground(t *testing.T) (site, cal, stdout, stderr string) {
	t.Helper()
	b := &builtPlayground
	b.once.Do(func() {
		b.root, b.err = os.MkdirTemp("", "brewput-test-playground-")
		if b.err != nil {
			return
		}
		b.site = filepath.Join(b.root, mainjob.PlaygroundDir)
		b.cal = filepath.Join(b.root, "cal.json")
		if b.err = saveFixedCalibration(b.cal); b.err != nil {
			return
		}
		var out, errOut syncBuffer
		b.code = runEnv(context.Background(), []string{"playground", "--out", b.site, "--calibration", b.cal},
			&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: noChild()})
		b.stdout, b.stderr = out.String(), errOut.String()
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	if b.code != exitOK {
		t.Fatalf("brewput playground --out %s --calibration %s: exit %d; stderr:\n%s", b.site, b.cal, b.code, b.stderr)
	}
	return b.site, b.cal, b.stdout, b.stderr
}

// removeSharedPlayground removes what sharedPlayground wrote, once every
// test is done.
func removeSharedPlayground() {
	if builtPlayground.root != "" {
		os.RemoveAll(builtPlayground.root)
	}
}
