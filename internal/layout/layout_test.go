// Package layout holds the tests of how brewput's packages depend on one
// another: the rules the compiler does not check.
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

const module = "github.com/brewput/brewput/"

// pkg is one package's non-test files, parsed.
type pkg struct {
	dir     string // relative to the module's root, "lab/logs"
	imports []string
	files   []*ast.File
}

// packages parses every package of the module, tests left out.
func packages(t *testing.T) map[string]*pkg {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		p := out[dir]
		if p == nil {
			p = &pkg{dir: filepath.ToSlash(dir)}
			out[dir] = p
		}
		p.files = append(p.files, f)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, module); ok && !slices.Contains(p.imports, rest) {
				p.imports = append(p.imports, rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// labs are the labs' packages, from lab/all's imports.
func labs(t *testing.T, ps map[string]*pkg) []string {
	var out []string
	for _, imp := range ps["lab/all"].imports {
		if strings.HasPrefix(imp, "lab/") {
			out = append(out, imp)
		}
	}
	if len(out) < 8 {
		t.Fatalf("lab/all lists %d labs: %v", len(out), out)
	}
	return out
}

// Data flows one way: scenario → harness → results → analysis → report;
// the labs stand beside the shop and need none of it.
func TestImportsOneWay(t *testing.T) {
	ps := packages(t)
	rules := map[string][]string{ // a package's prefix → what it must not import (prefixes)
		"results":          {""}, // nothing of brewput's
		"host":             {"sweep", "coffee", "model", "lab", "report", "analysis"},
		"lab":              {"sweep", "coffee", "model", "report", "analysis", "advise", "blueprint", "cmd"},
		"report":           {"lab/", "sweep", "cmd", "harness", "coffee"},
		"analysis":         {"report", "advise", "causal", "why", "sweep", "lab", "study", "gobench", "cmd"},
		"causal":           {"report", "advise", "why", "sweep", "lab", "cmd"},
		"why":              {"report", "advise", "lab", "cmd"},
		"model":            {"report", "analysis", "advise", "sweep", "lab", "cmd"},
		"sweep":            {"report", "analysis", "model", "lab", "study", "gobench", "cmd"},
		"coffee":           {"results", "report", "sweep", "model", "lab", "cmd"},
		"verdict":          {"report", "schedule", "sweep", "lab", "cmd", "harness", "study", "gobench", "bench", "meter"},
		"schedule":         {"report", "sweep", "lab", "cmd", "harness", "study", "gobench", "bench", "meter"},
		"internal/cliflag": {""},
		// The model's predictions and the main job are libraries the CLI
		// calls: they know no command line, and predict no report.
		"predict": {"report", "lab", "mainjob", "study", "gobench", "cmd"},
		"mainjob": {"study", "gobench", "cmd"},
		// The user's code: meters and benchmark helpers they import into
		// their own programs, which must stay light; a study and Go
		// benchmarks measured by brewput's parts, but never explained by
		// the shop's model, which knows nothing of the user's code.
		"meter":    {""},
		"bench":    {""},
		"gobench":  {"report", "analysis", "causal", "advise", "why", "model", "lab", "study", "cmd"},
		"study":    {"causal", "advise", "why", "model", "lab", "gobench", "cmd"},
		"examples": {"internal", "cmd", "sweep", "results"},
	}
	for dir, p := range ps {
		for prefix, banned := range rules {
			if !strings.HasPrefix(dir, prefix) || dir == "lab/all" && prefix == "lab" {
				continue
			}
			for _, imp := range p.imports {
				for _, b := range banned {
					if strings.HasPrefix(imp, b) {
						t.Errorf("%s imports %s", dir, imp)
					}
				}
			}
		}
	}
	// Only lab/all knows the labs; cmd/brewput knows them through it. The
	// one other is lessons: each seed's claim is about a particular lab,
	// measured through that lab's own Run.
	for _, l := range labs(t, ps) {
		for dir, p := range ps {
			if slices.Contains(p.imports, l) && dir != "lab/all" && dir != "lessons" {
				t.Errorf("%s imports the lab %s; only lab/all (and lessons) may", dir, l)
			}
		}
	}
}

// The report and the CLI know no lab by name: no string of their code is
// a lab's name, or holds one as a token of a name such as "lab-render" or
// "render/seq", outside the commands' help texts (Long, Short, Example),
// whose examples may run one. (The verb in "render index.html: …" is no
// lab's name.)
func TestNoLabByName(t *testing.T) {
	ps := packages(t)
	var names []string
	for _, l := range labs(t, ps) {
		names = append(names, strings.TrimPrefix(l, "lab/"))
	}
	named := regexp.MustCompile(`(^|[-/=:"])(` + strings.Join(names, "|") + `)($|[-/=:"])`)
	for _, dir := range []string{"report", "cmd/brewput"} {
		for _, f := range ps[dir].files {
			help := map[*ast.BasicLit]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				if kv, ok := n.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Long" || k.Name == "Short" || k.Name == "Example") {
						if lit, ok := kv.Value.(*ast.BasicLit); ok {
							help[lit] = true
						}
					}
				}
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !help[lit] && named.MatchString(lit.Value) {
					t.Errorf("%s: %s names a lab", dir, lit.Value)
				}
				return true
			})
		}
	}
}
