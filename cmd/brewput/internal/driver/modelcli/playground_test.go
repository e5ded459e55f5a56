package modelcli

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// parseFrom reads model, trace or both, and refuses anything else naming
// --from.
func TestParseFrom(t *testing.T) {
	for _, c := range []struct {
		from      string
		model, tr bool
		wantErr   string
	}{{"model", true, false, ""}, {"trace", false, true, ""}, {"model, trace", true, true, ""}, {"model,x", false, false, `--from "model,x": want model, trace or model,trace`}} {
		m, tr, err := parseFrom(c.from)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("parseFrom(%q) = %v, want %q", c.from, err, c.wantErr)
			}
			continue
		}
		if err != nil || m != c.model || tr != c.tr {
			t.Errorf("parseFrom(%q) = %v, %v, %v; want %v, %v", c.from, m, tr, err, c.model, c.tr)
		}
	}
}

// The playground runs the JSON of brewput model and of the model's
// schedule, and refuses, with a usage error before any simulation, what it
// would print otherwise than the CLI: another command, another format, a
// file to write.
func TestPlaygroundRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "brewput: the playground runs brewput model or schedule, got no command"},
		{[]string{"run"}, `brewput: the playground runs brewput model or schedule, got "run"`},
		{[]string{"model", "--modes", "locking"}, "brewput: --format compact: the playground prints brewput model's JSON only"},
		{[]string{"model", "--modes", "locking", "--format", "json", "--out", "x.json"}, "brewput: --out: the playground writes no files"},
		{[]string{"model", "--modes", "nope", "--format", "json"}, `brewput: --modes: unknown mode "nope"`},
		{[]string{"model", "--cpus", "x", "--format", "json"}, "brewput: --cpus: "},
		{[]string{"model", "--rate", "NaN", "--format", "json"}, "brewput: --rate NaN: want a finite number"},
		{[]string{"schedule", "--mode", "locking", "--cpus", "2"}, "brewput: the playground draws the model's schedule as JSON only"},
	} {
		var stdout, stderr strings.Builder
		code := Playground(context.Background(), c.args, &stdout, &stderr)
		if code != 2 || stdout.Len() > 0 || !strings.HasPrefix(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout, stderr beginning %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}
