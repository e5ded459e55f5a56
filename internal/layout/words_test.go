package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"
)

// wordless are the producers whose words the rendering layer
// (report/text) composes: they return typed facts, and write no
// sentence of their own. (experiment/limits and experiment/schedule
// still write theirs: their texts are kept in results files.)
var wordless = []string{"experiment/why", "measure/sweep", "lab/lessons"}

// verb is a format verb, "%s", "%-8.2f", "%[2]d", "%%".
var verb = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?[\d*]*(\.[\d*]*)?[a-zA-Z%]`)

// prose is a word, a space and a word: a sentence in the making.
var prose = regexp.MustCompile(`\p{L} \p{L}`)

// TestProducersWriteNoProse: no fmt.Sprintf, Fprintf or Printf in a
// wordless package formats prose, a format whose text, its verbs left
// out, has two words side by side. An error says what went wrong where
// it went wrong (fmt.Errorf, an Error method) and is not held to it.
func TestProducersWriteNoProse(t *testing.T) {
	ps := packages(t)
	for _, dir := range wordless {
		p := ps[dir]
		if p == nil {
			t.Fatalf("%s: no such package", dir)
		}
		for _, f := range p.files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil || fn.Recv != nil && fn.Name.Name == "Error" {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					// A lesson's claim is text the seed declares, the
					// CPUs it is measured on written in: data.
					if kv, ok := n.(*ast.KeyValueExpr); ok && dir == "lab/lessons" {
						if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Measures" {
							return false
						}
					}
					if format, ok := proseFormat(n); ok {
						t.Errorf("%s: %s formats prose %s: return the facts, and say them in report/text", dir, fn.Name.Name, format)
					}
					return true
				})
			}
		}
	}
}

// The rule tells a sentence from a label, and leaves errors be.
func TestProseFormat(t *testing.T) {
	for src, want := range map[string]bool{
		`fmt.Sprintf("%s limits this: %s", a, b)`:    true,
		`fmt.Fprintf(w, "resuming: %d of %d", a, b)`: false,
		`fmt.Fprintf(w, "%d of the %d runs", a, b)`:  true,
		`fmt.Sprintf("%s cpus=%d", a, b)`:            false,
		`fmt.Sprintf("%.0f %s", a, b)`:               false,
		`fmt.Errorf("needs %d CPUs", a)`:             false,
		`fmt.Sprintf(f, a)`:                          false,
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := proseFormat(e); got != want {
			t.Errorf("%s: prose %v, want %v", src, got, want)
		}
	}
}

// proseFormat is the format of n if n is a call of fmt.Sprintf, Fprintf
// or Printf whose format is prose.
func proseFormat(n ast.Node) (string, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "fmt" {
		return "", false
	}
	at := map[string]int{"Sprintf": 0, "Printf": 0, "Fprintf": 1}
	i, ok := at[sel.Sel.Name]
	if !ok || len(call.Args) <= i {
		return "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || !prose.MatchString(verb.ReplaceAllString(s, "#")) {
		return "", false
	}
	return lit.Value, true
}
