package main

import (
	"strings"
	"testing"
)

// TestRead reads what go test -json printed for a package with a passing,
// a failing and two skipped tests (its lines as cmd/test2json writes
// them), a package that did not build, one with no tests, which skipped
// no test, and one that timed out in a test that never ended.
func TestRead(t *testing.T) {
	in := `{"Action":"start","Package":"ex/a"}
{"Action":"run","Package":"ex/a","Test":"TestPass"}
{"Action":"output","Package":"ex/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"output","Package":"ex/a","Test":"TestPass","Output":"--- PASS: TestPass (0.00s)\n"}
{"Action":"pass","Package":"ex/a","Test":"TestPass"}
{"Action":"run","Package":"ex/a","Test":"TestBusy"}
{"Action":"output","Package":"ex/a","Test":"TestBusy","Output":"=== RUN   TestBusy\n"}
{"Action":"output","Package":"ex/a","Test":"TestBusy","Output":"    speed_test.go:41: machine busy: other processes took 1.20 CPUs\n"}
{"Action":"output","Package":"ex/a","Test":"TestBusy","Output":"--- SKIP: TestBusy (0.20s)\n"}
{"Action":"skip","Package":"ex/a","Test":"TestBusy"}
{"Action":"run","Package":"ex/a","Test":"TestBusy2"}
{"Action":"output","Package":"ex/a","Test":"TestBusy2","Output":"    speed_test.go:41: machine busy: other processes took 1.20 CPUs\n"}
{"Action":"skip","Package":"ex/a","Test":"TestBusy2"}
{"Action":"run","Package":"ex/a","Test":"TestFail"}
{"Action":"output","Package":"ex/a","Test":"TestFail","Output":"=== RUN   TestFail\n"}
{"Action":"output","Package":"ex/a","Test":"TestFail","Output":"    a_test.go:9: got 1, want 2\n"}
{"Action":"output","Package":"ex/a","Test":"TestFail","Output":"--- FAIL: TestFail (0.00s)\n"}
{"Action":"fail","Package":"ex/a","Test":"TestFail"}
{"Action":"output","Package":"ex/a","Output":"FAIL\n"}
{"Action":"output","Package":"ex/a","Output":"FAIL\tex/a\t0.01s\n"}
{"Action":"fail","Package":"ex/a"}
{"ImportPath":"ex/b","Action":"build-output","Output":"b.go:3:1: syntax error\n"}
{"ImportPath":"ex/b","Action":"build-fail"}
{"Action":"output","Package":"ex/c","Output":"ok  \tex/c\t0.02s\n"}
{"Action":"pass","Package":"ex/c"}
{"Action":"start","Package":"ex/d"}
{"Action":"output","Package":"ex/d","Output":"?   \tex/d\t[no test files]\n"}
{"Action":"skip","Package":"ex/d"}
{"Action":"run","Package":"ex/e","Test":"TestHang"}
{"Action":"output","Package":"ex/e","Test":"TestHang","Output":"=== RUN   TestHang\n"}
{"Action":"output","Package":"ex/e","Test":"TestHang","Output":"panic: test timed out after 10m0s\n"}
{"Action":"output","Package":"ex/e","Output":"FAIL\tex/e\t600.1s\n"}
{"Action":"fail","Package":"ex/e"}
`
	s, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if !s.failed {
		t.Error("a failed test and a failed build read as a pass")
	}
	got := strings.Join(s.lines, "\n")
	want := "=== RUN   TestFail\n    a_test.go:9: got 1, want 2\n--- FAIL: TestFail (0.00s)\nFAIL\nFAIL\tex/a\t0.01s\nb.go:3:1: syntax error\nok  \tex/c\t0.02s\n?   \tex/d\t[no test files]\nFAIL\tex/e\t600.1s\n=== RUN   TestHang\npanic: test timed out after 10m0s"
	if got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	if got, want := s.skipped(), "2 tests skipped: machine busy: other processes took 1.20 CPUs (2: a.TestBusy, a.TestBusy2)"; got != want {
		t.Errorf("the skips' line %q; want %q", got, want)
	}
	if got := (summary{}).skipped(); got != "no test skipped" {
		t.Errorf("no skips: %q", got)
	}
}
