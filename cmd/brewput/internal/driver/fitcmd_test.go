package driver

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/results"
)

// These tests run brewput fit on predictions of brewput model under fifo,
// which measures nothing: noChild fails any test that would.

// modelFile writes brewput model's predictions for args to a file in dir
// and returns its path.
func modelFile(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	runModel(t, append(args, "--sched", "fifo", "--format", "json", "--out", path)...)
	return path
}

// fitJSON runs brewput fit --format json with args and returns its objects
// by mode.
func fitJSON(t *testing.T, args ...string) map[string]map[string]any {
	t.Helper()
	code, stdout, stderr := brewput(context.Background(), t, noChild(), append([]string{"fit", "--format", "json"}, args...)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("brewput fit %q: exit %d; stderr:\n%s", args, code, stderr)
	}
	out := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON Lines: %v\n%s", err, stdout)
		}
		out[m["mode"].(string)] = m
	}
	return out
}

func TestFitModel(t *testing.T) {
	if race.Enabled {
		// A fit is one goroutine's work; the model's run it fits, the
		// same simulations TestModelFifoFinelocking runs under the
		// detector.
		t.Skip("the fits checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	dir := t.TempDir()
	f := modelFile(t, dir, "m.json", "--modes", "ideal,locking,finelocking", "--cpus", "1-8")

	fits := fitJSON(t, f)
	if len(fits) != 3 {
		t.Fatalf("%d fits, want ideal, locking, finelocking: %v", len(fits), fits)
	}
	num := func(mode, key string) float64 {
		v, ok := fits[mode][key].(float64)
		if !ok {
			t.Fatalf("%s: %s = %v, want a number", mode, key, fits[mode][key])
		}
		return v
	}
	if s := num("locking", "sigma"); math.Abs(s-1) > 0.01 {
		t.Errorf("locking: σ = %g, want near 1", s)
	}
	if s, k := num("ideal", "sigma"), num("ideal", "kappa"); s > 0.01 || k > 0.001 {
		t.Errorf("ideal: σ = %g, κ = %g, want near 0", s, k)
	}
	if l := num("ideal", "lambda"); math.Abs(l-250) > 1 {
		t.Errorf("ideal: λ = %g, want 250 lattes/s", l)
	}
	if fits["ideal"]["peak_n"] != nil || fits["locking"]["peak_n"] != nil {
		t.Errorf("ideal and locking have no peak, yet peak_n = %v, %v", fits["ideal"]["peak_n"], fits["locking"]["peak_n"])
	}
	// finelocking stops at 1000 lattes/s from 4 CPUs: the fit bends.
	if s, k := num("finelocking", "sigma"), num("finelocking", "kappa"); s+k < 0.01 {
		t.Errorf("finelocking: σ = %g, κ = %g; want a curve that bends", s, k)
	}
	if r2 := num("finelocking", "r2"); r2 < 0.9 || r2 > 1 {
		t.Errorf("finelocking: R² = %g", r2)
	}

	code, stdout, stderr := brewput(context.Background(), t, noChild(), "fit", f)
	if code != exitOK || stderr != "" {
		t.Fatalf("brewput fit: exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"σ", "κ", "λ", "R²", "Amdahl σ", "peak",
		"ideal", "none: κ = 0 and σ = 0", "locking", "flat from 1 CPU at 250.0", "finelocking", "flat from 4 CPUs at 1000.0", "model (fifo)", "250.0* lattes/s"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// TestFitMergesFiles fits files together: two CPU counts in each, four in
// all.
func TestFitMergesFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := modelFile(t, dir, "a.json", "--modes", "locking", "--cpus", "1,2")
	b := modelFile(t, dir, "b.json", "--modes", "locking", "--cpus", "3,4")
	fits := fitJSON(t, a, b)
	if l := fits["locking"]; l == nil || l["points"] != 4.0 || l["sigma"] != 1.0 {
		t.Errorf("locking from both files: %v; want σ = 1 from 4 CPU counts", l)
	}
}

// TestFitSomeTooFew prints the series that can be fitted and says why the
// others cannot.
func TestFitSomeTooFew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	many := modelFile(t, dir, "many.json", "--modes", "locking", "--cpus", "1-4")
	few := modelFile(t, dir, "few.json", "--modes", "ideal", "--cpus", "1,2")
	stdout, _ := succeeds(t, noChild(), "fit", many, few)
	if !strings.Contains(stdout, "cannot fit: 2 CPU counts (1, 2); a fit needs at least 3") {
		t.Errorf("table does not say why ideal cannot be fitted:\n%s", stdout)
	}
	fits := fitJSON(t, many, few)
	if fits["ideal"]["error"] != "2 CPU counts (1, 2); a fit needs at least 3" || fits["ideal"]["sigma"] != nil {
		t.Errorf("ideal in JSON: %v; want the reason and σ null", fits["ideal"])
	}
}

// TestFitBadInput checks that every bad input is a usage error (exit 2)
// with one line on stderr naming the problem, and nothing on stdout.
func TestFitBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	two := modelFile(t, dir, "two.json", "--modes", "ideal,locking", "--cpus", "1,2")
	good := modelFile(t, dir, "good.json", "--modes", "locking", "--cpus", "1-3")
	one := filepath.Join(dir, "one.json")
	var b strings.Builder
	if err := results.WriteJSON(&b, []results.Point{{Source: "h", Spec: results.Spec{Mode: "noop", CPUs: 1, Load: results.Load{Par: 1}}, Throughput: 10, Unit: "ops/s"}}); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.txt")
	for path, data := range map[string]string{one: b.String(), garbage: "hello\n"} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"no files", []string{"fit"}, []string{"at least one results file"}},
		{"missing file", []string{"fit", filepath.Join(dir, "nope.json")}, []string{"nope.json", "no such file"}},
		{"garbage file", []string{"fit", garbage}, []string{"garbage.txt", "not a brewput results file"}},
		{"directory", []string{"fit", dir}, []string{dir}},
		{"too few CPU counts", []string{"fit", two}, []string{"no series can be fitted against CPUs", "each of the 2 series has 2 CPU counts (1, 2); a fit needs at least 3"}},
		{"one point", []string{"fit", one}, []string{"no series can be fitted against CPUs", "noop (h): 1 CPU count (1); a fit needs at least 3"}},
		{"too few customer counts", []string{"fit", "--by", "par", good}, []string{"no series can be fitted against customers", "1 customer count"}},
		{"unknown by", []string{"fit", "--by", "mode", good}, []string{"--by", `"mode"`, "cpus", "par"}},
		{"unknown format", []string{"fit", "--format", "csv", good}, []string{"--format", `"csv"`, "table or json"}},
		{"unknown flag", []string{"fit", "--bogus", good}, []string{"unknown flag", "--bogus"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectUsage(t, nil, c.args, c.want)
		})
	}
}

func TestFitHelp(t *testing.T) {
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "fit", "--help")
	if code != exitOK || stderr != "" {
		t.Fatalf("brewput fit --help: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Usage: brewput fit FILE...", "Examples:\n  brewput", "--by", "--format", "X(N) = λN / (1 + σ(N−1) + κN(N−1))"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("brewput fit --help lacks %q:\n%s", want, stdout)
		}
	}
	_, stdout, _ = brewput(context.Background(), t, noChild(), "--help")
	if !strings.Contains(stdout, "\n  fit ") {
		t.Errorf("brewput --help does not list fit:\n%s", stdout)
	}
}
