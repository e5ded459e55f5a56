package playground

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// outsideTheModel are what the engine must not reach, with what is under
// them: the CLI (cobra, the driver's jobs; the driver itself is
// theCLI), the harness and what measures on this host for real (profiles,
// the lock watcher, user studies), the labs and what they link (gRPC,
// LevelDB), the report but its words, the explanation, and the browser
// that tests pages. Each made the engine larger; the report's fonts and
// plots alone were most of its 13.9 MB.
var outsideTheModel = []string{
	"github.com/spf13/cobra",
	Module + "/cmd/brewput/internal/driver/mainjob",
	Module + "/cmd/brewput/internal/driver/studyjob",
	Module + "/cmd/brewput/internal/driver/gobench",
	Module + "/measure/harness",
	Module + "/measure/record",
	Module + "/measure/lockwatch",
	Module + "/measure/study",
	Module + "/measure/bench",
	Module + "/lab",
	Module + "/explain",
	Module + "/report",
	"google.golang.org/grpc",
	"github.com/syndtr/goleveldb",
	"github.com/chromedp",
	"github.com/google/pprof",
	"runtime/pprof",
	"gonum.org",
	"golang.org/x/exp/trace",
	"github.com/schollz/progressbar",
}

// theCLI is the driver package, whose model's commands (modelcli) are
// the engine's, and the rest not.
const theCLI = Module + "/cmd/brewput/internal/driver"

// allowed are the exceptions under outsideTheModel's prefixes: the
// report's words, which the engine's JSON carries as the CLI's does.
var allowed = []string{Module + "/report/text"}

// TestEngineReachesOnlyTheModel: the engine, built for js/wasm, reaches
// the model, the shop, the causal profile, the schedule and the words
// they are said in, and nothing of outsideTheModel.
func TestEngineReachesOnlyTheModel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	list := exec.Command("go", "list", "-deps", Engine)
	list.Dir = filepath.Join("..", "..", "..", "..", "..")
	list.Env = append(list.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps %s: %v", Engine, err)
	}
	deps := strings.Fields(string(out))
	for _, want := range []string{"model", "model/sim", "model/blueprint", "coffee", "experiment/limits", "experiment/schedule", "report/text", "cmd/brewput/internal/driver/modelcli"} {
		if !slices.Contains(deps, Module+"/"+want) {
			t.Errorf("the engine does not reach %s; go list -deps says %d packages", want, len(deps))
		}
	}
	for _, dep := range deps {
		if dep == theCLI {
			t.Errorf("the engine reaches the CLI, %s", dep)
		}
		if slices.Contains(allowed, dep) {
			continue
		}
		for _, b := range outsideTheModel {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("the engine reaches %s (outside the model: %s)", dep, b)
			}
		}
	}
}
