package actors

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc/mem"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every actor, client, gRPC server and
// connection a test started has stopped, cancelled runs included.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestReply checks the record against its definition, with the standard
// library's FNV-1a for the checksum.
func TestReply(t *testing.T) {
	for _, size := range []int{minReplyBytes, 97, 512, 4096} {
		for _, id := range []uint64{1, 255, 1<<64 - 1} {
			for _, client := range []int{0, 7, maxClients - 1} {
				r := buildReply(id, client, size)
				rec := string(r.Record)
				if r.ID != id || len(rec) != size {
					t.Fatalf("buildReply(%d, %d, %d): id %d, %d bytes", id, client, size, r.ID, len(rec))
				}
				head := fmt.Sprintf("ipseity id=%d client=%d hex=%x pad=", id, client, id)
				body, sum, ok := strings.Cut(rec, " sum=")
				if !strings.HasPrefix(rec, head) || !ok || len(sum) != 16 {
					t.Fatalf("record %q: want %q, filler, \" sum=\" and 16 hex digits", rec, head)
				}
				h := fnv.New64a()
				h.Write([]byte(body))
				if got, err := strconv.ParseUint(sum, 16, 64); err != nil || got != h.Sum64() {
					t.Errorf("record %q: checksum %s, want %016x", rec, sum, h.Sum64())
				}
				if strings.Trim(body[len(head):], "0123456789abcdef") != "" {
					t.Errorf("record %q: filler is not hex digits", rec)
				}
				if err := checkReply(r, client, size); err != nil {
					t.Error(err)
				}
			}
		}
	}
	a, b := buildReply(1, 0, 200), buildReply(2, 0, 200)
	if string(a.Record[30:170]) == string(b.Record[30:170]) {
		t.Error("two identities have the same filler")
	}
	// checkReply catches a record of another identity or client, or damaged.
	r := buildReply(42, 3, 128)
	bad := []Reply{
		{ID: 43, Record: r.Record},
		{ID: 42, Record: buildReply(42, 4, 128).Record},
		{ID: 42, Record: append([]byte("x"), r.Record[1:]...)},
		{ID: 42, Record: r.Record[:127]},
	}
	for _, b := range bad {
		if checkReply(b, 3, 128) == nil {
			t.Errorf("checkReply accepted %d %q as the reply to client 3 for id 42", b.ID, b.Record)
		}
	}
}

// TestSequential: one client gets 1, 2, 3 … from every variant, and the
// right record with each.
func TestSequential(t *testing.T) {
	for _, v := range Variants() {
		for _, mailbox := range []int{0, 1, 1024} {
			svc, err := NewService(v, mailbox, 100)
			if err != nil {
				t.Fatal(err)
			}
			for want := uint64(1); want <= 300; want++ {
				r := svc.Next(5)
				if r.ID != want {
					t.Fatalf("%s: id %d, want %d", v, r.ID, want)
				}
				if err := checkReply(r, 5, 100); err != nil {
					t.Fatalf("%s: %v", v, err)
				}
			}
			svc.Close()
		}
	}
	if _, err := NewService("mutex", 1, 100); err == nil || !strings.HasPrefix(err.Error(), "variants") {
		t.Errorf("NewService(\"mutex\"): %v, want an error about variants", err)
	}
}

// verified wraps call so that every reply is checked byte for byte, not
// only each client's last as in a measured run.
func verified(call caller, size int) caller {
	return func(ctx context.Context, client int) (Reply, error) {
		r, err := call(ctx, client)
		if err == nil {
			err = checkReply(r, client, size)
		}
		return r, err
	}
}

// concurrently runs clients clients on a new service of variant, in process
// or over gRPC, every reply checked, and checks the identities exactly.
func concurrently(t *testing.T, variant string, remote bool, mailbox, clients, requests int) {
	t.Helper()
	const size = 128
	svc, err := NewService(variant, mailbox, size)
	if err != nil {
		t.Fatal(err)
	}
	call := func(_ context.Context, client int) (Reply, error) { return svc.Next(client), nil }
	if remote {
		r, err := serve(context.Background(), svc)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := r.close(); err != nil {
				t.Error(err)
			}
		}()
		call = r.next
	} else {
		defer svc.Close()
	}
	out, err := drive(context.Background(), verified(call, size), clients, requests, size)
	if err != nil {
		t.Fatalf("%s clients=%d remote=%v: %v", variant, clients, remote, err)
	}
	if err := check(out.ids, requests); err != nil {
		t.Fatalf("%s clients=%d remote=%v: %v", variant, clients, remote, err)
	}
	for i, lats := range out.latency {
		if len(lats) != lab.Share(requests, clients, i) {
			t.Fatalf("client %d timed %d requests, want %d", i, len(lats), lab.Share(requests, clients, i))
		}
		for _, d := range lats {
			if d <= 0 {
				t.Fatalf("client %d: a request took %d ns", i, d)
			}
		}
	}
	if out.window.Wall <= 0 {
		t.Errorf("wall time %v", out.window.Wall)
	}
}

// TestManyClients checks, exactly, every variant with up to 256 clients
// at once in process, mailboxes from unbuffered to large, at 1 and 2 CPUs:
// with the race detector, it is the test that no state is shared unlocked.
func TestManyClients(t *testing.T) {
	requests := 10_000
	if race.Enabled {
		requests = 5_000
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, n := range []int{1, 2} {
		runtime.GOMAXPROCS(n)
		for _, v := range Variants() {
			for _, clients := range []int{1, 3, 64, 256} {
				concurrently(t, v, false, 16, clients, requests+clients/2) // shares that differ by one
			}
		}
		concurrently(t, Actor, false, 0, 64, requests)
		concurrently(t, Actor, false, 1, 64, requests)
	}
}

// TestRemoteClients is TestManyClients over gRPC.
func TestRemoteClients(t *testing.T) {
	requests := 1_000
	if race.Enabled {
		requests = 500
	}
	for _, v := range Variants() {
		for _, clients := range []int{1, 16, 64} {
			concurrently(t, v, true, 16, clients, requests+1)
		}
	}
}

// TestCheck: the check of a run's identities finds each kind of fault.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		ids      [][]uint64
		requests int
		want     string // "" for no error
	}{
		{[][]uint64{{1, 3, 5}, {2, 4}}, 5, ""},
		{[][]uint64{{}, {1}}, 1, ""},
		{[][]uint64{{1, 3, 2}, {4}}, 4, "not strictly increasing"},
		{[][]uint64{{1, 2}, {2, 3}}, 4, "twice"},
		{[][]uint64{{1, 1}}, 2, "not strictly increasing"},
		{[][]uint64{{1, 2}, {6}}, 3, "outside 1 to 3"},
		{[][]uint64{{0, 1}}, 2, "outside"},
		{[][]uint64{{1, 2}}, 3, "2 ids handed out for 3 requests"},
	} {
		err := check(tc.ids, tc.requests)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("check(%v, %d) = %v, want %q", tc.ids, tc.requests, err, tc.want)
		}
	}
}

// TestDriveFails: a failing call, or a reply of the wrong size, fails the
// run and stops every client.
func TestDriveFails(t *testing.T) {
	boom := errors.New("boom")
	_, err := drive(context.Background(), func(_ context.Context, client int) (Reply, error) {
		if client == 3 {
			return Reply{}, boom
		}
		return buildReply(1, client, 100), nil
	}, 8, 1_000_000, 100)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "client 3") {
		t.Errorf("drive with a failing client: %v, want boom from client 3", err)
	}
	_, err = drive(context.Background(), func(context.Context, int) (Reply, error) {
		return Reply{ID: 1, Record: make([]byte, 99)}, nil
	}, 2, 10, 100)
	if err == nil || !strings.Contains(err.Error(), "99 bytes, want 100") {
		t.Errorf("drive with short replies: %v", err)
	}
}

func TestCodec(t *testing.T) {
	var c codec
	r := buildReply(1<<40+3, 9, 300)
	data, err := c.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	var got Reply
	if err := c.Unmarshal(data, &got); err != nil || got.ID != r.ID || string(got.Record) != string(r.Record) {
		t.Errorf("reply round trip: %v, %d %q", err, got.ID, got.Record)
	}
	data, err = c.Marshal(&request{client: 70000})
	if err != nil {
		t.Fatal(err)
	}
	var req request
	if err := c.Unmarshal(data, &req); err != nil || req.client != 70000 {
		t.Errorf("request round trip: %v, client %d", err, req.client)
	}
	if _, err := c.Marshal("text"); err == nil {
		t.Error("Marshal of a string succeeded")
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer("abc")}, &req); err == nil {
		t.Error("Unmarshal of a 3-byte request succeeded")
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer("abc")}, &got); err == nil {
		t.Error("Unmarshal of a 3-byte reply succeeded")
	}
	if err := c.Unmarshal(mem.BufferSlice{}, new(int)); err == nil {
		t.Error("Unmarshal into an int succeeded")
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "variants", Edit: func(c *Config) { c.Variants = nil }},
		{Flag: "variants", Edit: func(c *Config) { c.Variants = []string{"simple", "mutex"} }},
		{Flag: "variants", Edit: func(c *Config) { c.Variants = []string{"actor", "actor"} }},
		{Flag: "clients", Edit: func(c *Config) { c.Clients = nil }},
		{Flag: "clients", Edit: func(c *Config) { c.Clients = []int{4, 0} }},
		{Flag: "clients", Edit: func(c *Config) { c.Clients = []int{1 << 20} }},
		{Flag: "requests", Edit: func(c *Config) { c.Requests = 0 }},
		{Flag: "requests", Edit: func(c *Config) { c.Requests = 10 }}, // fewer than 64 clients
		{Flag: "requests", Edit: func(c *Config) { c.Requests = 1 << 40 }},
		{Flag: "remote-requests", Edit: func(c *Config) { c.Remote, c.RemoteRequests = true, 63 }},
		{Flag: "mailbox", Edit: func(c *Config) { c.Mailbox = -1 }},
		{Flag: "mailbox", Edit: func(c *Config) { c.Mailbox = 1 << 30 }},
		{Flag: "reply-bytes", Edit: func(c *Config) { c.ReplyBytes = 95 }},
		{Flag: "reply-bytes", Edit: func(c *Config) { c.ReplyBytes = 1 << 30 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 1 << 20 }},
	})
	// RemoteRequests matters only with Remote.
	c := DefaultConfig()
	c.RemoteRequests = 0
	if err := c.Validate(); err != nil {
		t.Errorf("remote-requests 0 without remote: %v", err)
	}
}

// TestRun checks the points' contract on a small sweep, remote included.
func TestRun(t *testing.T) {
	c := Config{Variants: []string{Actor, Simple}, Clients: []int{1, 3}, Requests: 3000, RemoteRequests: 300,
		Mailbox: 8, ReplyBytes: 200, Remote: true, Reps: 2}
	cpus := []int{1, 2}
	points, _ := labtest.RunLab(t, labtest.With(NewLab(), c), cpus, len(cpus)*2*2*2, Unit, []results.Metric{MetricClients, MetricRequests,
		MetricReplyBytes, MetricMailbox, MetricCPUPerID, MetricSpread, MetricVsSimple, MetricLocalRate, MetricRemoteCost})
	byKey := map[string]results.Point{}
	for i, p := range points {
		variant, remote := strings.CutPrefix(p.Variant(), RemotePrefix)
		requests := c.Requests
		if remote {
			requests = c.RemoteRequests
		}
		if remote != (i%2 == 1) || variant != c.Variants[i/2%2] || p.Par != c.Clients[i/4%2] || p.CPUs != cpus[i/8] {
			t.Errorf("point %d is %s clients=%d cpus=%d: not in the sweep's order", i, p.Variant(), p.Par, p.CPUs)
		}
		if p.Ops != int64(requests) {
			t.Errorf("%s: %d requests, want %d", p.Variant(), p.Ops, requests)
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || p.Latency.P50 <= 0 || p.Latency.Max < p.Latency.P50 || p.Hist == "" {
			t.Errorf("%s cpus=%d: duration %g s, %g ids/s, latency %+v", p.Variant(), p.CPUs, p.Dur.Seconds(), p.Throughput, p.Latency)
		}
		if h, err := p.Histogram(); err != nil || h.TotalCount() != int64(c.Reps*requests) {
			t.Errorf("%s: histogram of %v requests (%v), want %d", p.Variant(), h.TotalCount(), err, c.Reps*requests)
		}
		mt := p.Metrics
		if mt["clients"] != float64(p.Par) || mt["requests"] != float64(requests) || mt["reply_bytes"] != 200 ||
			!(p.Metrics[results.Util] > 0) || !(mt["cpu_us_per_id"] > 0) || !(mt["spread"] >= 0) || !(mt["vs_simple"] > 0) {
			t.Errorf("%s: metrics %v", p.Variant(), mt)
		}
		if _, ok := mt["mailbox"]; ok != (variant == Actor) || ok && mt["mailbox"] != 8 {
			t.Errorf("%s: mailbox metric %v", p.Variant(), mt)
		}
		if variant == Simple && mt["vs_simple"] != 1 {
			t.Errorf("%s: vs_simple %g", p.Variant(), mt["vs_simple"])
		}
		_, hasCost := mt["remote_cost"]
		_, hasLocal := mt["local_ids_per_s"]
		if hasCost != remote || hasLocal != remote {
			t.Errorf("%s: remote metrics on the wrong points: %v", p.Variant(), mt)
		}
		byKey[fmt.Sprintf("%s/%d/%d", p.Variant(), p.Par, p.CPUs)] = p
	}
	for _, p := range points {
		variant, remote := strings.CutPrefix(p.Variant(), RemotePrefix)
		if remote {
			local := byKey[fmt.Sprintf("%s/%d/%d", variant, p.Par, p.CPUs)]
			if p.Metrics["local_ids_per_s"] != local.Throughput || p.Metrics["remote_cost"] != local.Throughput/p.Throughput {
				t.Errorf("%s clients=%d cpus=%d: local %g ids/s, cost %g; the local point has %g", p.Variant(), p.Par, p.CPUs,
					p.Metrics["local_ids_per_s"], p.Metrics["remote_cost"], local.Throughput)
			}
		}
	}
}

// TestRunInterval: with 6 runs a point carries the intervals of its runs'
// median throughput, around it, and of its ratio to simple's run by run,
// and its line gives them.
func TestRunInterval(t *testing.T) {
	c := Config{Variants: []string{Simple, Actor}, Clients: []int{2}, Requests: 1000, Mailbox: 8, ReplyBytes: 200, Reps: lab.IntervalRuns()}
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1}, 2, Unit, []results.Metric{MetricClients, MetricRequests,
		MetricReplyBytes, MetricMailbox, MetricCPUPerID, MetricSpread, MetricVsSimple, lab.Lo(MetricVsSimple), lab.Hi(MetricVsSimple),
		lab.Lo(lab.MetricThroughput), lab.Hi(lab.MetricThroughput)})
	lines := labtest.Lines(told, text.LabEvent)
	for i, p := range points {
		m := p.Metrics
		line := strings.ReplaceAll(lines[i], "\n  ", " ")
		lo, hi := m[lab.Lo(lab.MetricThroughput)], m[lab.Hi(lab.MetricThroughput)]
		if !(0 < lo && lo <= p.Throughput && p.Throughput <= hi) || !strings.Contains(line, fmt.Sprintf("[%s, %s]", format.Rate(lo, Unit), format.Rate(hi, Unit))) {
			t.Errorf("%s: throughput %g in [%g, %g]; line %q", p.Variant(), p.Throughput, lo, hi, line)
		}
		vlo, vs, vhi := m[lab.Lo(MetricVsSimple)], m[MetricVsSimple], m[lab.Hi(MetricVsSimple)]
		if !(0 < vlo && vlo <= vs && vs <= vhi) || (p.Variant() == Simple && (vlo != 1 || vhi != 1)) ||
			(p.Variant() == Actor && !strings.Contains(line, fmt.Sprintf("×%.2f [%.2f, %.2f] simple's", vs, vlo, vhi))) {
			t.Errorf("%s: vs_simple %g in [%g, %g]; line %q", p.Variant(), vs, vlo, vhi, line)
		}
	}
}

// TestCancel: a cancelled run returns the points it finished and the
// context's error, and leaves no goroutine behind (TestMain), between
// points and in the middle of a run, in process and over gRPC.
func TestCancel(t *testing.T) {
	c := Config{Variants: Variants(), Clients: []int{1, 2}, Requests: 2000, RemoteRequests: 200, Mailbox: 4, ReplyBytes: 128, Remote: true, Reps: 1}
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1}, text.LabEvent, "remote/sequence clients=1", 8)

	// Cancelled in the middle of a run: the clients stop early.
	// (2 million requests take seconds in process, 200 000 over gRPC.)
	for _, remote := range []bool{false, true} {
		requests := 2_000_000
		if remote {
			requests = 200_000
		}
		for _, v := range Variants() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			start := time.Now()
			if _, err := runOnce(ctx, c, v, remote, 16, requests); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s remote=%v past its deadline: %v, want context.DeadlineExceeded", v, remote, err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s remote=%v took %v to stop", v, remote, d)
			}
			cancel()
		}
	}
}

// The flags set the configuration's fields.
func TestBind(t *testing.T) {
	want := Config{Variants: []string{Simple, Actor}, Clients: []int{1, 2}, Requests: 10, RemoteRequests: 5, Mailbox: 3, ReplyBytes: 128, Remote: true, Reps: 2}
	labtest.Binds(t, NewLab(), want, "--variants", "simple,actor", "--clients", "1,2", "--requests", "10", "--remote-requests", "5",
		"--mailbox", "3", "--reply-bytes", "128", "--remote", "--reps", "2")
	if err := labtest.Bind(NewLab(), "--clients", "0"); err == nil || !strings.HasPrefix(err.Error(), "--clients 0") {
		t.Errorf("--clients 0: %v", err)
	}
}
