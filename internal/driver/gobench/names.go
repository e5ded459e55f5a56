package gobench

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// One checks, before anything is built, that cfg.Bench may match one
// benchmark: where the first part of the pattern (go test splits it at
// its slashes, a part a level of sub-benchmarks) matches two of the
// packages' top-level benchmarks, or none, it says so, read from their
// test files. Which of one benchmark's sub-benchmarks the rest matches
// is known only once it runs: a test binary lists its top-level
// benchmarks (-test.list) and no more, so Built.Why runs each that
// matches once, for one iteration, before it times anything.
func One(ctx context.Context, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	pkgs, err := list(ctx, cfg)
	if err != nil {
		return err
	}
	firsts := firstParts(cfg.bench())
	var names, paths []string
	for _, p := range pkgs {
		paths = append(paths, p.ImportPath)
		for _, name := range topBenchmarks(p.Dir, slices.Concat(p.TestGoFiles, p.XTestGoFiles)) {
			if slices.ContainsFunc(firsts, func(re *regexp.Regexp) bool { return re.MatchString(name) }) {
				names = append(names, name)
			}
		}
	}
	return oneMatch(names, cfg.bench(), paths)
}

// oneMatch is nil where names, the benchmarks that bench matched in pkgs,
// are one, else the error of none or of several.
func oneMatch(names []string, bench string, pkgs []string) error {
	switch {
	case len(names) == 0:
		return &NoMatchError{Bench: bench, Packages: pkgs}
	case len(names) > 1:
		return &ManyMatchError{Names: names}
	}
	return nil
}

// topBenchmarks are the top-level benchmarks the test files in dir declare,
// as go test finds them: BenchmarkX functions of one *B parameter and no
// result. A file that does not parse declares none here (the build will
// say why).
func topBenchmarks(dir string, files []string) []string {
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv == nil && isBenchmark(fn) {
				out = append(out, fn.Name.Name)
			}
		}
	}
	return out
}

// isBenchmark says whether go test runs fn as a benchmark: named
// Benchmark, or Benchmark and a name that does not start lower-case, of
// one parameter *B (testing's, however imported) and no result.
func isBenchmark(fn *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fn.Name.Name, "Benchmark")
	if !ok {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && unicode.IsLower(r) {
		return false
	}
	t := fn.Type
	if t.Results != nil && len(t.Results.List) > 0 || t.Params == nil || len(t.Params.List) != 1 || len(t.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := t.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.Ident:
		return x.Name == "B"
	case *ast.SelectorExpr:
		return x.Sel.Name == "B"
	}
	return false
}

// firstParts are the patterns a top-level benchmark's name is matched
// with: the first part of each alternative of pattern, split as the
// testing package splits it, at slashes and bars outside brackets and
// parentheses ("A/x|B" matches A's and B's).
func firstParts(pattern string) []*regexp.Regexp {
	var out []*regexp.Regexp
	brackets, parens, first, start := 0, 0, true, 0
	add := func(part string) {
		if re, err := regexp.Compile(part); err == nil {
			out = append(out, re)
		}
	}
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0)
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/':
			if brackets == 0 && parens == 0 && first {
				add(pattern[start:i])
				first = false
			}
		case '|':
			if brackets == 0 && parens == 0 {
				if first {
					add(pattern[start:i])
				}
				first, start = true, i+1
			}
		}
	}
	if first {
		add(pattern[start:])
	}
	return out
}
