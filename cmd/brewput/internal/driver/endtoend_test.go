package driver

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
)

// endToEndEnv, set to 1, runs the end-to-end tests whose work is a build
// of brewput of its own (the recipes of docs/development.md, applied
// through an overlay; the playground's engine, run in Chromium), each
// showing again, whole, what lower tests show a part at a time: .ci/run
// sets it for its plain go test ./....
const endToEndEnv = "BREWPUT_E2E"

// endToEnd skips t, saying why and how to run it, unless .ci/run's plain
// run (endToEndEnv=1) or -run (a developer following the recipe) asks for
// it; and under the race detector, which the build it tests is not made
// with, so that the race run repeats nothing of the plain run's.
func endToEnd(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("end to end, in a build of brewput without the race detector: .ci/run's plain run runs it")
	}
	if os.Getenv(endToEndEnv) == "1" {
		return
	}
	if run := flag.Lookup("test.run"); run != nil && run.Value.String() != "" {
		return
	}
	t.Skipf("end to end, in a build of brewput of its own: .ci/run runs it (%s=1), as does go test -run naming it", endToEndEnv)
}

// recipeTest starts the end-to-end test of docs/development.md's recipe
// under heading, in parallel with the others: skipped under -short
// (builds says what it builds) and as endToEnd says. It returns the
// repository's root, a folder of the test's own and the recipe's block.
func recipeTest(t *testing.T, heading, builds string) (root, dir, block string) {
	t.Helper()
	if testing.Short() {
		t.Skip(builds)
	}
	endToEnd(t)
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root, t.TempDir(), recipeBlock(t, filepath.Join(root, "docs", "development.md"), heading)
}
