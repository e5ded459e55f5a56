package main

import (
	"context"
	"strings"
	"testing"
)

// The actors lab runs from the command line, small, on 1 CPU, in process
// and over gRPC; its checks and lessons are in package actors.
func TestActorsLabRun(t *testing.T) {
	ps := runLab(t, "actors", "--cpus", "1", "--variants", "actor,simple", "--clients", "1,3",
		"--requests", "2000", "--remote", "--remote-requests", "100", "--mailbox", "4", "--reply-bytes", "128", "--reps", "1")
	want := []string{"actor", "remote/actor", "simple", "remote/simple"}
	if len(ps) != 2*len(want) {
		t.Fatalf("%d points, want %d", len(ps), 2*len(want))
	}
	for i, p := range ps {
		m := p.Metrics
		remote := strings.HasPrefix(p.Variant, "remote/")
		requests := map[bool]float64{false: 2000, true: 100}[remote]
		if p.Variant != want[i%4] || p.Par != []int{1, 3}[i/4] || m["clients"] != float64(p.Par) ||
			m["requests"] != requests || m["reply_bytes"] != 128 || (m["remote_cost"] > 0) != remote {
			t.Errorf("point %d: %s clients=%d, metrics %v; want %s with the flags' values", i, p.Variant, p.Par, m, want[i%4])
		}
		if strings.HasSuffix(p.Variant, "actor") && m["mailbox"] != 4 {
			t.Errorf("%s: mailbox %v, want 4", p.Variant, m["mailbox"])
		}
	}
}

func TestActorsLabBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--variants", "mutex"}, `--variants "mutex"`},
		{[]string{"--variants", "actor,actor"}, `--variants "actor": given twice`},
		{[]string{"--clients", "0"}, "--clients 0"},
		{[]string{"--clients", "x"}, "--clients"},
		{[]string{"--requests", "10"}, "--requests 10"},
		{[]string{"--remote", "--remote-requests", "1"}, "--remote-requests 1"},
		{[]string{"--mailbox", "-1"}, "--mailbox -1"},
		{[]string{"--reply-bytes", "10"}, "--reply-bytes 10"},
		{[]string{"--remote=maybe"}, "--remote"},
		{[]string{"--reps", "0"}, "--reps 0"},
	} {
		args := append([]string{"lab", "actors"}, c.args...)
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
