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
// arguments, or an Error method) and a command's help (cobra's Short,
// Long and Example, a flag's usage), as "file: format".
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
				// is measured on written in: the seed's text, data. A
				// command's help (cobra's Short, Long and Example) is the
				// command layer's own, as docs/commands.md prints it.
				if kv, ok := n.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && slices.Contains([]string{"Measures", "Short", "Long", "Example"}, key.Name) {
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
				// A flag's usage is its help: StringVar, IntVar, ChoiceVar,
				// SetDefault.
				help := strings.HasSuffix(name, "Var") || name == "SetDefault"
				if pkg == "fmt" && name == "Errorf" || pkg == "errors" && name == "New" || pkg == "" && name == "panic" || help {
					inError = append(inError, n)
					return true
				}
				if pkg != "fmt" || !slices.Contains(composes, name) || len(inError) > 0 {
					return true
				}
				for _, arg := range call.Args {
					if s, ok := literal(arg); ok && prose.MatchString(verb.ReplaceAllString(s, "")) {
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

// literal is a string literal's text, or that of literals joined by +.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		x, ok := literal(e.X)
		y, ok2 := literal(e.Y)
		return x + y, ok && ok2 && e.Op == token.ADD
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// within reports whether n lies inside outer.
func within(outer, n ast.Node) bool { return n.Pos() >= outer.Pos() && n.End() <= outer.End() }

// callee names a call's package and function: "fmt", "Sprintf".
func callee(call *ast.CallExpr) (pkg, name string) {
	if id, ok := call.Fun.(*ast.Ident); ok {
		return "", id.Name
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name, sel.Sel.Name
	}
	return "", sel.Sel.Name
}

// layers are the folders of every package outside the command layer: the
// producers, the results and the explanation return typed facts, and the
// rendering layer (report/, report/text) says them.
var layers = []string{"results", "explain", "experiment", "model", "lab", "measure", "coffee", "internal", "cmd"}

// TestWordsInOneLayer: every package outside the command layer and the
// rendering layer returns typed facts, and report/text composes the
// sentences a user reads from them; errors are said where they happen. A
// sentence composed with fmt in their non-test files fails: none is
// allowed.
func TestWordsInOneLayer(t *testing.T) {
	for _, c := range proseCalls(t, filepath.Join("..", ".."), layers...) {
		t.Errorf("%s\n\tcomposes a sentence: return typed facts and say them in report/text", c)
	}
}

// TestProseCalls: the check finds a sentence composed with Sprintf or
// Fprintf, its format one literal or literals joined, and passes over
// errors (fmt.Errorf, errors.New, an Error method, a panic), formats
// without two words side by side, a claim's declared Measures, and test
// files.
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
	_ = fmt.Sprintf("%d of %d "+"customers finished nothing", n, n)
	panic(fmt.Sprintf("no flag --%s for a field", "x"))
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
	want := []string{"results/say.go: %d runs each\n", "results/say.go: %d of %d customers finished nothing", "results/say.go: too few runs"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
