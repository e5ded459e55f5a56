package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// prose is two words side by side in a format string, its verbs left out:
// "too few runs", not "%s cpus=%d" nor "%.1f%%".
var (
	prose = regexp.MustCompile(`[A-Za-z] [A-Za-z]`)
	verb  = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)
)

// composes are the fmt functions that compose text; Errorf is left out,
// for an error is said where it happens.
var composes = []string{"Sprintf", "Sprint", "Sprintln", "Fprintf", "Fprint", "Fprintln", "Printf", "Print", "Println", "Appendf"}

// proseCalls lists the fmt calls in the non-test files under root's dirs that
// compose prose outside an error (an fmt.Errorf's or errors.New's
// arguments, or an Error method), as "file: format".
func proseCalls(t *testing.T, root string, dirs ...string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			var inError []ast.Node // the error calls and methods being walked
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					return true
				}
				for len(inError) > 0 && !within(inError[len(inError)-1], n) {
					inError = inError[:len(inError)-1]
				}
				// A lesson's claim declares what it measures, the CPUs it
				// is measured on written in: the seed's text, data.
				if kv, ok := n.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Measures" {
						return false
					}
				}
				if fn, ok := n.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "Error" {
					inError = append(inError, n)
					return true
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				pkg, name := callee(call)
				if pkg == "fmt" && name == "Errorf" || pkg == "errors" && name == "New" {
					inError = append(inError, n)
					return true
				}
				if pkg != "fmt" || !slices.Contains(composes, name) || len(inError) > 0 {
					return true
				}
				for _, arg := range call.Args {
					lit, ok := arg.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					s, _ := strconv.Unquote(lit.Value)
					if prose.MatchString(verb.ReplaceAllString(s, "")) {
						out = append(out, filepath.ToSlash(rel)+": "+s)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// within reports whether n lies inside outer.
func within(outer, n ast.Node) bool { return n.Pos() >= outer.Pos() && n.End() <= outer.End() }

// callee names a call's package and function: "fmt", "Sprintf".
func callee(call *ast.CallExpr) (pkg, name string) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name, sel.Sel.Name
	}
	return "", sel.Sel.Name
}

// stillSaid are the sentences results/ and explain/ still compose, each
// for a reason that keeps it there for now; any other is an error of
// TestWordsInOneLayer, and one no longer composed must leave the list.
var stillSaid = []string{
	// Written into a record whose JSON must stay as it is: a point's
	// reasons for a number past its bound (results.json's "above" text),
	// a calibration's trust (analysis "costs"), a fit's no_peak, a
	// picture's why, a count's source and best named, a compared
	// metric's verdict (compare's and why's JSON).
	"results/trust.go: %.1f a second above the arrival rate %g: orders that arrived before the window were served in it; %s",
	"results/trust.go: %.1f a second above the arrival rate %g: arrivals are random (Poisson), %.0f a second arrived in this window",
	"results/trust.go: %s, its band to %s: %s; %s",
	"results/trust.go: its band's high edge: %s: %s; %s",
	"results/trust.go: %s below the latency bound (%s ms): %s; %s",
	"results/trust.go: %s above its ceiling %s (%s) by %s %%",
	"results/band.go: set aside: the calibration %s (other processes used %.2f CPUs)",
	"results/band.go: on a quiet machine (other processes used %.2f CPUs)",
	"results/band.go: on a busy machine (other processes used %.2f CPUs): not to be trusted",
	"explain/scaling/fit.go: flat from %s at %.1f %s",
	"explain/scaling/fit.go: the fitted curve would peak at %.1f %s at %.1f %s, above the structural bound of %.1f %s, which throughput cannot pass",
	"explain/scaling/fit.go: none seen: the throughput does not fall (highest %.1f %s at %g %s); the fitted curve turns at %.1f %s",
	"explain/scaling/fit.go: grows in proportion over the data, and cannot pass the structural bound of %.1f %s",
	"explain/scaling/fit.go: λ/σ = %.1f lies above the structural bound of %.1f %s, which throughput cannot pass",
	"explain/scaling/fit.go: κ = 0: throughput grows over the whole series; where it would stop (λ/σ) is past %d× the largest throughput seen, which the data cannot tell",
	"explain/scaling/fit.go: stays flat at λ = %.1f",
	"explain/schedule/pick.go: %s on %s %s: %.0f %s, limited by %s, %s.",
	"explain/schedule/pick.go: %s on %s is limited by %s: %.0f %s, %s; no mode that scales makes enough more beside it to draw the two.",
	"explain/verdict/verdict.go:  (%d of %d modes; the others %s)",
	"explain/verdict/verdict.go: predicted by the model",
	"explain/verdict/verdict.go: an open loop of %g orders/s",
	"explain/compare/stats.go: ~ (n=%s: too few runs for a verdict; use --count %d)",
	// Said to packages below the report (lab/, experiment/, model/),
	// which cannot import report/text: what disturbed a point, the
	// runtime's costs, a calibration's span, a claim's figure and tally.
	"results/trust.go:  of its %s",
	"results/trust.go: other processes took %.2f CPUs%s",
	"results/trust.go:  and the hypervisor %.2f",
	"results/costwords.go: %s wakes a sleeping goroutine in %s, hands a locked mutex on in %s and a value over a channel in %s",
	"results/band.go:  over %d calibrations of this machine since %s",
	"results/lesson/figure.go: %s (n=%d: too few for an interval)",
	"results/lesson/result.go: %d claims: %d reproduced, %d not reproduced, %d inconclusive",
	// Written into a file of Go benchmark lines, as its comments.
	"results/bench.go: # Benchmark%s: no operations in the window (%.0f errors, %.0f drops); left out\n",
	"results/bench.go: # Benchmark%s: disturbed: %s while it was measured\n",
	// A reader's warnings on what it passed over: errors that do not stop it.
	"results/file.go: line %d: incomplete (a write cut short, as by a kill), left out",
	"results/file.go: line %d: a point of kind %q, unknown to this version of brewput (a newer one wrote it?), left out",
	"results/file.go: %s: field %q is not known to this version of brewput (a newer one wrote it?), ignored",
	"results/file.go: line %d: results of schema %d, newer than this version's %d: read as far as it can",
	"results/file.go: line %d: a record of kind %v, unknown to this version of brewput, ignored",
	"results/file.go: %d point(s) repeat an earlier one exactly (point %s of the file), counted once",
}

// TestWordsInOneLayer: results/ and explain/ return data, and the
// rendering layer (report/text) composes the sentences a user reads from
// it; errors are said where they happen. A sentence composed with fmt in
// their non-test files, other than those stillSaid lists, fails.
func TestWordsInOneLayer(t *testing.T) {
	found := proseCalls(t, filepath.Join("..", ".."), "results", "explain")
	for _, c := range found {
		if !slices.Contains(stillSaid, c) {
			t.Errorf("%s\n\tcomposes a sentence: return typed facts and say them in report/text", c)
		}
	}
	for _, s := range stillSaid {
		if !slices.Contains(found, s) {
			t.Errorf("%s\n\tis no longer composed there: take it off stillSaid", s)
		}
	}
}

// TestProducersWriteNoProse: these producers return typed facts (their
// sentences, tables and progress said by report/text), and compose no
// sentence of their own but an error's. experiment/limits still writes
// its own, kept in results files.
func TestProducersWriteNoProse(t *testing.T) {
	for _, c := range proseCalls(t, filepath.Join("..", ".."), "experiment/why", "measure/sweep", "lab/lessons", "experiment/schedule") {
		t.Errorf("%s\n\tcomposes a sentence: return typed facts and say them in report/text", c)
	}
}

// TestProseCalls: the check finds a sentence composed with Sprintf or
// Fprintf, and passes over errors (fmt.Errorf, errors.New, an Error
// method), formats without two words side by side, a claim's declared
// Measures, and test files.
func TestProseCalls(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "results")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package results

import (
	"errors"
	"fmt"
	"io"
)

type tooFew struct{ n int }

func (e tooFew) Error() string { return fmt.Sprintf("a fit needs %d points", e.n) }

func say(w io.Writer, n int) error {
	fmt.Fprintf(w, "%d runs each\n", n)
	_ = fmt.Sprintf("%s cpus=%d", "locking", n)
	_ = fmt.Sprintf("%.1f%%", 2.5)
	_ = errors.New(fmt.Sprintf("no point in %d files", n))
	return fmt.Errorf("line %d: not a point: %w", n, errors.New("bad json"))
}

var s = fmt.Sprint("too few runs")

var claim = struct{ Measures string }{Measures: fmt.Sprintf("the ratio on %d CPUs", 2)}
`
	for name, text := range map[string]string{"say.go": src, "say_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := proseCalls(t, root, "results")
	want := []string{"results/say.go: %d runs each\n", "results/say.go: too few runs"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
