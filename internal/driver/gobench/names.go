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
// benchmark: that the first part of the pattern (a level of
// sub-benchmarks a part) matches one of the packages' top-level
// benchmarks, read from their test files. Which sub-benchmarks the rest
// matches is known only once they run (Built.Why).
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

// oneMatch is nil where names, those bench matched in pkgs, are one.
func oneMatch(names []string, bench string, pkgs []string) error {
	switch {
	case len(names) == 0:
		return &NoMatchError{Bench: bench, Packages: pkgs}
	case len(names) > 1:
		return &ManyMatchError{Names: names}
	}
	return nil
}

// topBenchmarks are the top-level benchmarks the test files in dir
// declare; a file that does not parse declares none (the build says why).
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

// isBenchmark says whether go test runs fn as a benchmark: Benchmark or
// BenchmarkX (X not lower-case), of one parameter *B and no result.
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

// firstParts are the first part of each alternative of pattern, split as
// testing splits it ("A/x|B" matches A's and B's).
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
