package driver

import (
	"context"
	"strings"
	"testing"
)

func TestListPrintsEveryFamily(t *testing.T) {
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "list")
	if code != exitOK || stderr != "" {
		t.Fatalf("brewput list: exit %d, stderr %q", code, stderr)
	}
	// A description too long for the terminal goes on under itself.
	listed := map[string]string{}
	last := ""
	for line := range strings.Lines(stdout) {
		if strings.HasPrefix(line, " ") && last != "" {
			listed[last] += " " + strings.TrimSpace(line)
			continue
		}
		pattern, desc, _ := strings.Cut(strings.TrimSpace(line), " ")
		listed[pattern], last = strings.TrimSpace(desc), pattern
	}
	want := []string{"ideal", "locking", "finelocking", "parsteam", "americano", "espresso",
		"multi-N", "linearpipe-N", "splitpipe-N", "multipipe-N", "americanopipe-N", "espressopipe-N", "noop"}
	for _, p := range want {
		desc, ok := listed[p]
		switch {
		case !ok:
			t.Errorf("brewput list does not list %s:\n%s", p, stdout)
		case desc == "":
			t.Errorf("brewput list gives %s no description", p)
		case strings.HasSuffix(p, "-N") && !strings.Contains(desc, "(N: "):
			t.Errorf("brewput list does not say what N means for %s: %q", p, desc)
		}
	}
	if len(listed) != len(want) {
		t.Errorf("brewput list lists %d lines, want %d:\n%s", len(listed), len(want), stdout)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"run", "--help"}, {"report", "--help"}, {"compare", "--help"}, {"list", "--help"}, {"model", "--help"}, {"calibrate", "--help"}, {"help", "run"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
			if code != exitOK || stderr != "" {
				t.Fatalf("brewput %q: exit %d, stderr %q", args, code, stderr)
			}
			if !strings.Contains(stdout, "Examples:\n  brewput") {
				t.Errorf("brewput %q prints no examples:\n%s", args, stdout)
			}
			if !strings.Contains(stdout, "Usage:") {
				t.Errorf("brewput %q prints no usage:\n%s", args, stdout)
			}
		})
	}
}

func TestHelpHidesPointAndCompletion(t *testing.T) {
	_, stdout, _ := brewput(context.Background(), t, noChild(), "--help")
	for _, cmd := range []string{"run", "model", "calibrate", "report", "compare", "list"} {
		if !strings.Contains(stdout, "\n  "+cmd+" ") {
			t.Errorf("brewput --help does not list the %s command:\n%s", cmd, stdout)
		}
	}
	for _, cmd := range []string{"point", "completion"} {
		if strings.Contains(stdout, "\n  "+cmd+" ") {
			t.Errorf("brewput --help lists the %s command:\n%s", cmd, stdout)
		}
	}
}

// A misspelled command or flag is refused, exit 2, with what was meant.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"modle"}, `unknown command "modle"; did you mean model?`},
		{[]string{"--mdoes", "x"}, "unknown flag: --mdoes; did you mean --modes?"},
		{[]string{"model", "--cpu", "4"}, "unknown flag: --cpu; did you mean --cpus?"},
		{[]string{"--cpus", "1-300"}, "300 CPUs: this machine has"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("brewput %q: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}
