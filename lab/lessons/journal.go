package lessons

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/lab/actors"
	"github.com/brewput/brewput/lab/aggregate"
	"github.com/brewput/brewput/lab/logs"
	"github.com/brewput/brewput/lab/stream"
)

// journalSeed is the journal of posts on streaming over gRPC, aggregating
// channel reads, actors, and synchronized writes.
const journalSeed = "journal-streaming-actors-syncwrite.txt"

// journalCPUs is the most CPUs the journal's claims are measured on (its
// write benchmarks ran on 4 cores).
const journalCPUs = 4

// journalClients is the number of concurrent clients of the identity
// service.
const journalClients = 16

// logWriters is the number of writers sharing the log in the naive-sum
// claim.
const logWriters = 8

// journalClaims are the journal's: an actor serves about as many requests
// as a mutex, a listener goroutine streams far more than waiting for each
// reply, the messenger's buffer matters little, grouping events is
// faster, and summing t writers' latencies overstates the time t-fold.
func journalClaims(cpus int) []Claim {
	n := top(cpus, journalCPUs)
	noPenalty := lesson.Between(0.8, 1.25) // "about as many": within a fifth either way
	claims := []Claim{
		{
			Name: "journal/actor-vs-mutex", Text: "An actor (a goroutine owning the counter, fed by a mailbox) serves about as many requests as one mutex",
			SeedFigure: "\"it does not appear that the actor model … adds overhead that penalizes performance\" (chart only)",
			Measures:   fmt.Sprintf("the actor's identities/s ÷ simple's (one mutex around each request), %d clients in process, %d CPUs (claim: ×0.8 to ×1.25)", journalClients, n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.1,
			sample: actorsRatio(n, false),
		},
		{
			Name: "journal/actor-vs-mutex-grpc", Text: "Served over gRPC, as the journal's identity service is, an actor serves about as many requests as one mutex",
			SeedFigure: "\"it does not appear that the actor model … adds overhead that penalizes performance\" (chart only)",
			Measures:   fmt.Sprintf("the actor's identities/s ÷ simple's, each behind a gRPC server on 127.0.0.1, %d clients, %d CPUs (claim: ×0.8 to ×1.25)", journalClients, n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.3,
			sample: actorsRatio(n, true),
		},
		{
			Name: "journal/async-vs-sync", Text: "Receiving replies in a listener goroutine (async) streams far more messages than waiting for each reply (sync)",
			SeedFigure: "sync \"does not perform well at all\"; async much better (chart only, 5000 messages each from its own goroutine)",
			Measures:   fmt.Sprintf("async's messages/s ÷ sync's over one gRPC stream, each message from its own goroutine, messenger buffer 10, %d CPUs (claim: at least ×2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(2), CPUs: []int{n}, cost: 0.3,
			sample: streamRatio(n, []string{stream.ModeSync, stream.ModeAsync}, []int{10},
				stream.Variant(stream.ModeAsync, 10, false), stream.Variant(stream.ModeSync, 10, false)),
		},
		{
			Name: "journal/buffer-little", Text: "The size of the messenger's channel buffer matters little",
			SeedFigure: "\"Buffer size only has a small impact\" (buffers up to 1000, chart only)",
			Measures:   fmt.Sprintf("async's messages/s with a messenger buffer of 1000 ÷ with none, %d CPUs (claim: ×0.8 to ×1.25)", n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.3,
			sample: streamRatio(n, []string{stream.ModeAsync}, []int{0, 1000},
				stream.Variant(stream.ModeAsync, 1000, false), stream.Variant(stream.ModeAsync, 0, false)),
		},
		{
			Name: "journal/grouping", Text: "Grouping runs of identical events into one handle call is faster than a call per event",
			SeedFigure: "no figure: a a a a b b b handled as (a, 4), (b, 3)",
			Measures:   fmt.Sprintf("events/s grouped ÷ one call per event; 2 producers, runs of 8 on average, a 2 µs call, channel of 100, %d CPUs (claim: at least ×1.2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(1.2), CPUs: []int{n}, cost: 0.1,
			sample: func(ctx context.Context, e Env) (float64, error) {
				c := aggregate.Config{Events: pick(e.Level, 3000, 20_000, 100_000), Producers: []int{2}, Buffers: []int{100},
					RunLength: 8, HandleCost: 2 * time.Microsecond, Seed: 1, Reps: pick(e.Level, 1, 1, 3)}
				points, err := aggregate.Run(ctx, c, []int{n}, nil)
				return metricOf(points, err, aggregate.Variant(aggregate.Grouped, 2, 100), n, "speedup")
			},
		},
		{
			Name: "journal/naive-sum", Text: "Adding up t writers' latencies overstates a serialized log's time about t-fold",
			SeedFigure: "t writers each see n·t·w: summed n·w·t² where n·t·w passed (×t)",
			Measures:   fmt.Sprintf("the sum of %d writers' append latencies ÷ the wall time, as a share of %d; a file log with an fsync per append, %d CPUs (claim: at least 75 %%)", logWriters, logWriters, n),
			Unit:       lesson.Share, Rule: lesson.AtLeast(0.75), CPUs: []int{n}, cost: 0.3,
			sample: func(ctx context.Context, e Env) (float64, error) {
				c := logs.Config{Kinds: []logs.Kind{logs.File}, Writers: []int{logWriters}, Appends: pick(e.Level, 40, 800, 2000),
					ValueBytes: 100, Sync: true, Dir: e.Dir, Reps: 1}
				points, err := logs.Run(ctx, c, []int{n}, nil)
				o, err := metricOf(points, err, logs.Variant(logs.File, true), n, "overstatement")
				return o / logWriters, err
			},
		},
	}
	return fromSeed(journalSeed, claims)
}

// actorsRatio samples the actor's throughput over simple's with
// journalClients clients on n CPUs, in process or over gRPC.
func actorsRatio(n int, remote bool) func(context.Context, Env) (float64, error) {
	return func(ctx context.Context, e Env) (float64, error) {
		c := actors.DefaultConfig()
		c.Variants, c.Clients = []string{actors.Simple, actors.Actor}, []int{journalClients}
		if e.Index%2 == 1 {
			c.Variants = []string{actors.Actor, actors.Simple}
		}
		c.Requests, c.RemoteRequests = pick(e.Level, 5000, 20_000, 100_000), pick(e.Level, 500, 2000, 5000)
		c.Remote, c.Reps = remote, pick(e.Level, 1, 1, 3)
		points, err := actors.Run(ctx, c, []int{n}, nil)
		prefix := ""
		if remote {
			prefix = actors.RemotePrefix
		}
		return metricRatio(points, err, "", prefix+actors.Actor, n, prefix+actors.Simple, n)
	}
}

// streamRatio samples the throughput of variant a over that of b, from
// one run of modes and buffers on n CPUs.
func streamRatio(n int, modes []string, buffers []int, a, b string) func(context.Context, Env) (float64, error) {
	return func(ctx context.Context, e Env) (float64, error) {
		c := stream.DefaultConfig()
		c.Modes, c.Buffers = modes, buffers
		if len(buffers) == 2 {
			c.Buffers = inTurn(e, buffers[0], buffers[1])
		}
		c.Messages, c.Reps = pick(e.Level, 300, 1000, 5000), pick(e.Level, 1, 1, 3)
		points, err := stream.Run(ctx, c, []int{n}, nil)
		return metricRatio(points, err, "", a, n, b, n)
	}
}
