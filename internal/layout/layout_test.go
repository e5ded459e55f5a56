// Package layout holds the tests of how brewput's packages depend on one
// another: the rules the compiler does not check.
package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
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
		if err != nil {
			return err
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module, such as validation/
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
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

// tier places a package in the pipeline: scenario → harness → results →
// explanation → report, with the engine beside the scenarios and the
// CLI's orchestration on top. The experiments (experiment/), producers
// that rerun the model or real code to find a limit, come after the
// explanation layer, whose statistics judge what they measure; the
// explanation reaches none of them (TestExplainOnlyReads). A package
// imports only packages of its own tier or an earlier one. Each top-level
// folder serves one tier, so that the root's folders show the floors:
// internal/ holds the foundations (files written whole, numbers
// formatted, exit codes, flags), before everything, importing only the
// standard library and each other (TestBaseIsStandard), with the tests'
// kit that needs nothing else; measure/ the kit and its helpers on this
// host; cmd/ the command layer (cmd/brewput/internal/driver) and main.
// Every package has a tier.
func tier(dir string) (int, bool) {
	tiers := []struct {
		prefix string
		tier   int
	}{
		{"internal", -1},
		{"results", 0},
		{"measure", 1}, {"coffee", 1}, {"model", 1},
		{"lab", 2},
		{"explain", 3},
		{"experiment", 4},
		{"report", 5},
		{"cmd/brewput/internal", 6},
		{"cmd", 7},
		{"examples", 8},
	}
	for _, t := range tiers {
		if dir == t.prefix || strings.HasPrefix(dir, t.prefix+"/") {
			return t.tier, true
		}
	}
	return 0, false
}

// TestEveryPackageHasATier: a package no tier names could import anything
// unseen.
func TestEveryPackageHasATier(t *testing.T) {
	for dir := range packages(t) {
		if _, ok := tier(dir); !ok && dir != "." {
			t.Errorf("%s has no tier: place it in tier()", dir)
		}
	}
}

// TestBaseIsStandard: the foundations import only the standard library
// (golang.org/x/sys, its system calls, counted in) and each other, so that
// any package, the kit's lightest included, may use them.
func TestBaseIsStandard(t *testing.T) {
	for dir, p := range packages(t) {
		if !strings.HasPrefix(dir, "internal/base/") {
			continue
		}
		for _, f := range p.files {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if strings.Contains(first, ".") && !strings.HasPrefix(path, module+"internal/base/") && !strings.HasPrefix(path, "golang.org/x/sys/") {
					t.Errorf("%s imports %s: a foundation imports only the standard library and internal/base", dir, path)
				}
			}
		}
	}
}

// Data flows one way through the tiers; the examples, like any user's
// program, reach brewput only through its public packages.
func TestImportsOneWay(t *testing.T) {
	ps := packages(t)
	for dir, p := range ps {
		own, ok := tier(dir)
		for _, imp := range p.imports {
			if strings.HasPrefix(dir, "examples") && strings.HasPrefix(imp, "internal") {
				t.Errorf("%s imports %s: an example uses only public packages", dir, imp)
			}
			to, tok := tier(imp)
			if !ok || !tok || to <= own {
				continue
			}
			t.Errorf("%s (tier %d) imports %s (tier %d): data flows scenario → harness → results → explanation → report", dir, own, imp, to)
		}
	}
	// Only lab/all knows the labs; the driver knows them through it. The
	// one other is lab/lessons: each seed's claim is about a particular
	// lab, measured through that lab's own Run.
	for _, l := range labs(t, ps) {
		for dir, p := range ps {
			if slices.Contains(p.imports, l) && dir != "lab/all" && dir != "lab/lessons" {
				t.Errorf("%s imports the lab %s; only lab/all (and lab/lessons) may", dir, l)
			}
		}
	}
}

// producers are the packages that make points or run a system: the
// model, the measuring kit and its helpers on this host, the coffee shop,
// the labs and the experiments.
var producers = []string{"model", "measure", "coffee", "lab", "experiment", "cmd"}

// reachesAny maps each package of pattern (as go list takes it) that
// reaches a package under one of banned to those it reaches.
func reachesAny(t *testing.T, pattern string, banned []string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", pattern)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	reached := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		for _, dep := range fields[1:] {
			dep, ours := strings.CutPrefix(dep, module)
			if ours && slices.ContainsFunc(banned, func(b string) bool { return dep == b || strings.HasPrefix(dep, b+"/") }) {
				reached[pkg] = append(reached[pkg], dep)
			}
		}
	}
	return reached
}

// TestExplainOnlyReads: the explanation reads results and makes none:
// nothing under explain/ reaches, even through another package, a
// producer; what reruns the model or real code to find a limit is an
// experiment's (experiment/).
func TestExplainOnlyReads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for pkg, deps := range reachesAny(t, "./explain/...", producers) {
		t.Errorf("%s reaches %v: the explanation reads results, the experiments and the producers make them", pkg, deps)
	}
}

// The report renders points and their analysis (results/analysis) and
// computes no reading of its own: neither it nor anything it depends on
// is a producer (the model, the kit, the shop, a lab, an experiment), the
// explanation layer or the CLI's prediction. Its words (report/text) are
// the page's and the terminal's alike.
func TestReportOnlyRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for pkg, deps := range reachesAny(t, "./report/...", append([]string{"explain"}, producers...)) {
		t.Errorf("%s reaches %v: the report renders an analysis, it does not make one", pkg, deps)
	}
}

// Listing the root shows the pipeline and nothing else.
func TestRootFolders(t *testing.T) {
	want := []string{"cmd", "coffee", "docs", "examples", "experiment", "explain", "internal", "lab", "measure", "model", "report", "results", "validation"}
	root := filepath.Join("..", "..")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	// What git ignores is not the tree's: a report brewput wrote at the
	// root (the README's first command) lies there beside it.
	var got []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !gitIgnores(t, root, e.Name()+"/") {
			got = append(got, e.Name())
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("top-level folder %s/ is not one of the pipeline's %v", g, want)
		}
	}
}

// The command layer is one package tree: cmd/brewput is main alone, one
// call into cmd/brewput/internal/driver, which no other package imports,
// its tests included (and which, internal to cmd/brewput, no other module,
// the validation module included, can import); and no folder of it is
// named run, the old split's name for the commands' jobs.
func TestOneCommandLayer(t *testing.T) {
	root := filepath.Join("..", "..")
	entries, err := os.ReadDir(filepath.Join(root, "cmd", "brewput"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "main.go" && e.Name() != "internal" && !gitIgnores(t, root, "cmd/brewput/"+e.Name()) {
			t.Errorf("cmd/brewput/%s: cmd/brewput holds only main.go; commands, flags and jobs live in cmd/brewput/internal/driver", e.Name())
		}
	}
	filepath.WalkDir(filepath.Join(root, "cmd"), func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "run" {
			t.Errorf("%s: no folder of the command layer is named run; the commands' jobs are the driver's", path)
		}
		return err
	})
	if testing.Short() {
		return // the imports below run go list
	}
	list := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	driver := module + "cmd/brewput/internal/driver"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from := fields[0]
		if from == driver || strings.HasPrefix(from, driver+"/") {
			continue
		}
		for _, imp := range fields[1:] {
			if (imp == driver || strings.HasPrefix(imp, driver+"/")) && !(from == module+"cmd/brewput" && imp == driver) {
				t.Errorf("%s imports %s: only cmd/brewput imports the driver, and only the driver itself", strings.TrimPrefix(from, module), strings.TrimPrefix(imp, module))
			}
		}
	}
}

// TestDefaultOutputsIgnored: every folder and file brewput writes into the
// working folder by default, run at the repository's root, is one git
// ignores, so that the README's two commands work in either order.
func TestDefaultOutputsIgnored(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git to ask what it ignores")
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout: nothing is ignored")
	}
	// The main job's report, the playground, examples/cache/study's report
	// (a study's is NAME-report), a schedule's pictures.
	for _, name := range []string{"brewput-report/", "brewput-playground/", "cache-report/", "orderbook-report/",
		"schedule-finelocking-6cpu-model.png", "schedule-finelocking-6cpu-model.svg"} {
		if !gitIgnores(t, root, name) {
			t.Errorf("git does not ignore %s, which brewput writes by default", name)
		}
	}
}

// gitIgnores reports whether git ignores name in the checkout at root;
// false where there is no git or no checkout.
func gitIgnores(t *testing.T, root, name string) bool {
	t.Helper()
	cmd := exec.Command("git", "-C", root, "check-ignore", "-q", "--no-index", name)
	err := cmd.Run()
	return err == nil
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
	for _, dir := range []string{"report", "cmd/brewput/internal/driver"} {
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

// The kit users import into their own programs stays light: the meters,
// the CPU burner and the benchmark helpers need nothing beyond the
// standard library but the HDR histogram; the results file (and the
// harness, which takes its results.Load) adds golang.org/x/perf, whose
// benchfmt reads and writes Go's benchmark format, and internal/base's
// foundations (format, collect, jsonout), which need only the standard
// library; a study program links no
// command-line library (brewput study gives it its commands), and no RPC
// stack, database, browser, lab, model, explanation or report; nor does
// the kit link the coffee shop, whose points measure/sweep measures as
// any system's (coffee/shopsweep).
func TestKitWall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	light := []string{"github.com/HdrHistogram/hdrhistogram-go"}
	withPerf := append(slices.Clone(light), "golang.org/x/perf/", "github.com/aclements/go-moremath/")
	for _, c := range []struct {
		pkg     string
		allowed []string // prefixes of the non-standard packages it may reach
	}{
		{"./measure/meter", light},
		{"./measure/harness", withPerf},
		{"./measure/burn", light},
		{"./measure/bench", light},
		{"./results", withPerf},
		{"./results/lesson", withPerf},
		{"./internal/base/format", nil},
	} {
		for _, dep := range deps(t, c.pkg) {
			if !slices.ContainsFunc(c.allowed, func(a string) bool { return strings.HasPrefix(dep, a) }) {
				t.Errorf("%s reaches %s; the kit allows only the standard library, brewput's own kit and %v", c.pkg, dep, c.allowed)
			}
		}
	}
	banned := []string{"github.com/spf13/cobra", "github.com/spf13/pflag", "google.golang.org/grpc", "github.com/syndtr/goleveldb", "github.com/chromedp/",
		"gonum.org/", module + "coffee", module + "lab", module + "model", module + "explain", module + "report", module + "cmd"}
	for _, pkg := range []string{"./measure/...", "./examples/cache/study"} {
		for _, dep := range deps(t, pkg) {
			for _, b := range banned {
				if strings.HasPrefix(dep, b) {
					t.Errorf("%s reaches %s", pkg, dep)
				}
			}
		}
	}
}

// deps lists the packages pkg depends on, itself included, that are
// neither in the standard library nor brewput's measurement kit, results
// and internal/base's foundations; brewput's other packages are listed too.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var list []string
	for _, line := range strings.Fields(string(out)) {
		if rest, ok := strings.CutPrefix(line, module); ok && (strings.HasPrefix(rest, "measure/") || strings.HasPrefix(rest, "results") || strings.HasPrefix(rest, "internal/base/")) {
			continue
		}
		list = append(list, line)
	}
	return list
}
