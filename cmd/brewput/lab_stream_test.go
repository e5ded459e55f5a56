package main

import (
	"context"
	"strings"
	"testing"
)

// The stream lab runs from the command line, small, on 1 CPU, with a
// restart and faulty messages; its checks and lesson are in package
// stream.
func TestStreamLabRun(t *testing.T) {
	ps := runLab(t, "stream", "--cpus", "1", "--modes", "sync,iorder", "--messages", "200", "--buffers", "0,10",
		"--payload-bytes", "32", "--malformed", "3", "--oversized", "2", "--restart", "--downtime", "10ms", "--reps", "1")
	want := []string{"sync/buf=0", "sync/buf=0/restart", "sync/buf=10", "sync/buf=10/restart",
		"iorder/buf=0", "iorder/buf=0/restart", "iorder/buf=10", "iorder/buf=10/restart"}
	if len(ps) != len(want) {
		t.Fatalf("%d points, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		m := p.Metrics
		restart := strings.HasSuffix(p.Variant, "/restart")
		if p.Variant != want[i] || m["messages"] != 200 || m["payload_bytes"] != 32 || m["lost"] != 0 ||
			m["replied"]+m["failed"] != 200 || m["failed_too_large"] != 2 {
			t.Errorf("point %d: %s, metrics %v; want %s with the flags' values", i, p.Variant, m, want[i])
		}
		if !restart && (m["replied"] != 195 || m["failed_rejected"] != 3) || restart && m["reconnects"] < 1 {
			t.Errorf("%s: metrics %v", p.Variant, m)
		}
	}
}

func TestStreamLabBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--modes", "fast"}, `--modes "fast"`},
		{[]string{"--messages", "0"}, "--messages 0"},
		{[]string{"--buffers", "-1"}, "--buffers -1"},
		{[]string{"--buffers", "x"}, "--buffers"},
		{[]string{"--payload-bytes", "100000"}, "--payload-bytes 100000"},
		{[]string{"--malformed", "-1"}, "--malformed -1"},
		{[]string{"--oversized", "6000"}, "--oversized 6000"},
		{[]string{"--downtime", "1h"}, "--downtime 1h0m0s"},
		{[]string{"--downtime", "soon"}, "--downtime"},
		{[]string{"--restart=maybe"}, "--restart"},
		{[]string{"--reps", "0"}, "--reps 0"},
	} {
		args := append([]string{"lab", "stream"}, c.args...)
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}
