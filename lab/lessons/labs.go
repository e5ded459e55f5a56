package lessons

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/lab/actors"
	"github.com/brewput/brewput/lab/aggregate"
	"github.com/brewput/brewput/lab/channels"
	"github.com/brewput/brewput/lab/logs"
	"github.com/brewput/brewput/lab/render"
	"github.com/brewput/brewput/lab/stream"
	"github.com/brewput/brewput/lab/wordcount"
	"github.com/brewput/brewput/lab/workloads"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
)

// The article on sequential, concurrent and parallel workloads (Ardan
// Labs), whose parallel runs had 8 cores.
const (
	workloadsSeed = "concurrency-parallelism-workloads.txt"
	workloadsCPUs = 8
)

// workloadsClaims are the article's: when goroutines gain, on 1 CPU and
// more, for IO-bound and CPU-bound work, and a sort that cannot split.
func workloadsClaims(cpus int) []Claim {
	n := top(cpus, workloadsCPUs)
	claims := []Claim{
		{
			Name: "workloads/find-1cpu", Text: "IO-bound work (find in documents behind a 1 ms wait) gains from goroutines even on 1 CPU",
			SeedFigure: "“10 Thousand Documents using 8 goroutines with 1 core”: “BenchmarkSequential 3 1483458120 ns/op”, “BenchmarkConcurrent 20 188941855 ns/op : ~87% Faster” (1.48 s → 0.19 s, ×7.9)",
			Measures:   "find's sequential time ÷ its concurrent time, 8 goroutines as in the seed, on 1 CPU (claim: at least 75 % of the seed's ×7.9)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * 7.9), CPUs: []int{1}, cost: 0.25,
			sample: workloadsSpeedup("find", 1, func(l Level, c *workloads.Config) {
				c.Docs, c.Wait, c.Workers = pick(l, 24, 100, 300), time.Millisecond, 8
			}),
		},
		{
			Name: "workloads/add-1cpu", Text: "CPU-bound work (adding integers) gains nothing from goroutines on 1 CPU: it loses their switching",
			SeedFigure: "“10 Million Numbers using 8 goroutines with 1 core”: “BenchmarkSequential 1000 5720764 ns/op : ~10% Faster”, “BenchmarkConcurrent 1000 6387344 ns/op” (5.7 ms → 6.4 ms, ×0.90: the goroutines lose 10 %)",
			Measures:   fmt.Sprintf("add's sequential time ÷ its concurrent time, on 1 CPU (claim: at most ×%.2f, a loss of at least 75 %% of the seed's 10 %%)", addLoss1),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(addLoss1), CPUs: []int{1}, cost: 0.15,
			sample: workloadsSpeedup("add", 1, addConfig),
		},
		{
			Name: "workloads/add-more-cpus", Text: "CPU-bound work (adding integers) gains from goroutines with more CPUs",
			SeedFigure: "“10 Million Numbers using 8 goroutines with 8 cores”: “BenchmarkSequential-8 1000 5910799 ns/op”, “BenchmarkConcurrent-8 2000 3362643 ns/op : ~43% Faster” (5.9 ms → 3.4 ms, ×1.76)",
			Measures:   fmt.Sprintf("add's sequential time ÷ its concurrent time, on %d CPUs (claim: at least 75 %% of the seed's ×1.76)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * 1.76), CPUs: []int{n}, cost: 0.15,
			sample: workloadsSpeedup("add", n, addConfig),
		},
		{
			Name: "workloads/sort-no-gain", Text: "A bubble sort split among goroutines gains nothing: the whole must be sorted again after the parts",
			SeedFigure: "“With Bubble sort, there is no performance gain by using concurrency.” (no figure)",
			Measures:   fmt.Sprintf("sort's sequential time ÷ its concurrent time, on %d CPUs (claim: at most ×1.05)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.05), CPUs: []int{n}, cost: 0.1,
			sample: workloadsSpeedup("sort", n, func(l Level, c *workloads.Config) { c.SortSize = pick(l, 500, 3000, 8000) }),
		},
	}
	return fromSeed(workloadsSeed, claims)
}

// addLoss1 is the most add's concurrent way may keep of the sequential
// way's speed on 1 CPU: 75 % of the seed's loss of 10 % (5720764 against
// 6387344 ns/op), as the claims of a gain ask for 75 % of the seed's ratio.
const addLoss1 = 1 - 0.75*(1-5720764.0/6387344)

// addConfig sizes add: 10 million integers in the article, fewer in a
// quick run; runs warm and repeated, as the article's benchmarks.
func addConfig(l Level, c *workloads.Config) {
	c.AddSize, c.Reps = pick(l, 200_000, 4_000_000, 10_000_000), pick(l, 1, 3, 5)
	c.MinRun = pick(l, 0, 20*time.Millisecond, 100*time.Millisecond) // warm runs long enough to hold up beside a neighbour
}

// workloadsSpeedup samples the speedup of workload's concurrent variant
// on cpus CPUs, sized by size; the others are not run.
func workloadsSpeedup(workload string, cpus int, size func(Level, *workloads.Config)) sampler {
	return labSample(workloads.Run, func(e Env) (workloads.Config, []int) {
		c := workloads.Config{AddSize: 1, SortSize: 1, Docs: 1, Topic: "gopher", Workers: 1, Goroutines: 0, Reps: 1,
			Workloads: []string{workload}} // the others' trivial runs, repeated to MinRun, cost more than the claim's
		size(e.Level, &c)
		return c, []int{cpus}
	}, metric(workload+"/concurrent", cpus, "speedup"))
}

// The French article on channels and contention ("GO et chan"), and its
// setup: a channel of 25 messages, 3 consumers, on 4 CPUs.
const (
	channelsSeed      = "channels-and-contention-fr.txt"
	channelsSize      = 25
	channelsConsumers = 3
	channelsCPUs      = 4
	channelsBatch     = 1000
)

// channelsClaims are the article's: how far from the CPU bound single
// lines stay, and how batching, a larger channel and more CPUs change it.
func channelsClaims(cpus int) []Claim {
	n := top(cpus, channelsCPUs)
	claims := []Claim{
		{
			Name: "channels/batch1-far", Text: "One line per message, one producer and 3 consumers stay far from what the CPUs allow",
			SeedFigure: "“chacun des 4 CPU travaille à 41% de sa capacité et qu’il faut 50s pour traiter les 10M de lignes de logs. On est loin de l’objectif de ~15s” (channel of 25, 1 producer, 3 consumers: 30 % of the bound)",
			Measures:   fmt.Sprintf("lines/s as a share of the bound the producer's and a consumer's rates alone and the CPUs allow; channel of 25, 3 consumers, 1 line a message, %d CPUs (claim: at most 75 %%)", n),
			Unit:       lesson.Share, Rule: lesson.AtMost(0.75), CPUs: []int{n}, cost: 0.15,
			sample: channelsSample(func(Env) ([]int, []int, []int) { return []int{channelsSize}, []int{1}, []int{n} },
				metric(channels.Variant(channelsSize, channelsConsumers, 1), n, "of_bound")),
		},
		{
			Name: "channels/batching", Text: "Sending lines in batches closes most of the gap to the bound",
			SeedFigure: "“il faut 50s pour traiter les 10M de lignes” … “j’arrive à atteindre le temps minimum de ~23s en faisant des batch de traitement de 1000 strings” (×2.2)",
			Measures:   fmt.Sprintf("share of the bound with batches of 1000 lines ÷ with 1 line a message; channel of 25, 3 consumers, %d CPUs (claim: at least 75 %% of the seed's ×2.2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * 2.2), CPUs: []int{n}, cost: 0.25,
			sample: channelsSample(func(e Env) ([]int, []int, []int) { return []int{channelsSize}, inTurn(e, 1, channelsBatch), []int{n} },
				metricRatio("of_bound", channels.Variant(channelsSize, channelsConsumers, channelsBatch), n, channels.Variant(channelsSize, channelsConsumers, 1), n)),
		},
		{
			Name: "channels/size-helps", Text: "A larger channel (100 slots against 25) brings single lines through faster",
			SeedFigure: "“il faut 50s pour traiter les 10M de lignes” (channel of 25) … “On atteint un temps minimal de traitement de ~26s à partir de 100 slots” (×1.9)",
			Measures:   fmt.Sprintf("lines/s through a channel of 100 ÷ through a channel of 25; 3 consumers, 1 line a message, %d CPUs (claim: at least 75 %% of the seed's ×1.9)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * 1.9), CPUs: []int{n}, cost: 0.25,
			sample: channelsSample(func(e Env) ([]int, []int, []int) { return inTurn(e, channelsSize, 100), []int{1}, []int{n} },
				metricRatio("", channels.Variant(100, channelsConsumers, 1), n, channels.Variant(channelsSize, channelsConsumers, 1), n)),
		},
		{
			Name: "channels/one-cpu", Text: "The contention is worst on 1 CPU (an InfluxDB slowdown that went away with 4 CPUs)",
			SeedFigure: "“Il suffira de passer à 4 CPU pour que le problème disparaisse” … “le facteur d’augmentation des CPU est de x4, alors que le gain en performances est de ~ x10” (InfluxDB, not the article's program: per CPU, 1 CPU did 0.4 of what 4 did)",
			Measures:   fmt.Sprintf("share of the bound on 1 CPU ÷ on %d CPUs; channel of 25, 3 consumers, 1 line a message (claim: at most ×0.9: the seed's ×0.4 is InfluxDB's, not this program's)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(0.9), CPUs: []int{1, n}, cost: 0.3,
			sample: channelsSample(func(e Env) ([]int, []int, []int) { return []int{channelsSize}, []int{1}, inTurn(e, 1, n) },
				metricRatio("of_bound", channels.Variant(channelsSize, channelsConsumers, 1), 1, channels.Variant(channelsSize, channelsConsumers, 1), n)),
		},
	}
	return fromSeed(channelsSeed, claims)
}

// channelsSample samples figure of the article's experiment with the
// channel sizes, batches and CPU counts lists makes of the sample.
func channelsSample(lists func(Env) (sizes, batches, cpus []int), figure func([]results.Point) (float64, error)) sampler {
	return labSample(channels.Run, func(e Env) (channels.Config, []int) {
		c := channels.DefaultConfig()
		c.Lines = pick(e.Level, 3000, 20_000, 60_000)
		sizes, batches, cpus := lists(e)
		c.Sizes, c.Consumers, c.Batches = sizes, []int{channelsConsumers}, batches
		c.Reps = 1 // a claim's samples are its repetitions
		return c, cpus
	}, figure)
}

// The talk profiling a word count and a Mandelbrot renderer, on a laptop
// of 8 CPUs.
const (
	profilingSeed = "profiling-two-programs-talk.txt"
	profilingCPUs = 8
)

// profilingClaims are the talk's: how rendering scales by goroutine, the
// encode's cap (Amdahl), and what buffering and reuse do for reading.
func profilingClaims(cpus int) []Claim {
	n := top(cpus, profilingCPUs)
	claims := []Claim{
		{
			Name: "profiling/per-pixel", Text: "A goroutine per pixel is no faster than one goroutine: a pixel is too little work for a goroutine",
			SeedFigure: "“we were in sequential mode we can go to per pixel mode okay so it didn't really change the time one point six seconds to one point seven” (the whole program, 8 CPUs)",
			Measures:   fmt.Sprintf("seq's render time ÷ pixel's (a goroutine per pixel), on %d CPUs (claim: at most ×1.1)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.1), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, metric("pixel", n, "speedup")),
		},
		{
			Name: "profiling/per-row", Text: "A goroutine per row scales with the CPUs",
			SeedFigure: "“1.6 seconds” sequentially, then a goroutine per row: “we've almost cut that time to a quarter” … “the time to compute the image is about 200 milliseconds and the time to ride it out is about 200 milliseconds” (render about 1.4 s → 0.2 s, ×7 on 8 CPUs; the whole program ×4)",
			Correction: "brewput's earlier quote, 1.6 s → 200 ms (×8), took the whole program's sequential time for the render's: the render was about 1.4 s of the 1.6, so the seed's render speed-up is about ×7",
			Measures:   fmt.Sprintf("seq's render time ÷ row's (a goroutine per row), on %d CPUs (claim: at least 75 %% of ×%d)", n, n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * float64(n)), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, metric("row", n, "speedup")),
		},
		{
			Name: "profiling/amdahl", Text: "The sequential part (encoding the image) caps the whole program's speedup, as Amdahl's law says",
			SeedFigure: "“that's with the 50% of the workload being paralyzed” … “you can see that after after 16 you get basically no benefit” … “only 5% of the program is sequential and that still taps out at no greater than a 20% 20 times speed up”",
			Measures:   fmt.Sprintf("the whole program's speedup with a goroutine per row (render and encode) ÷ Amdahl's bound for its measured serial fraction, on %d CPUs (claim: at most ×1.05)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.05), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, func(points []results.Point) (float64, error) {
				total, err := metricOf(points, "row", n, "total_speedup")
				if err != nil {
					return 0, err
				}
				serial, err := metricOf(points, "seq", n, "serial_fraction")
				if err != nil {
					return 0, err
				}
				return ratio(total, render.Amdahl(serial, n), "Amdahl's bound")
			}),
		},
		{
			Name: "profiling/buffered-x10", Text: "Buffering the reads makes the word count an order of magnitude faster: a system call per byte was the cost",
			SeedFigure: "“it was 2.6 seconds let's see how long it takes now impressive so that one change improve the performance is programmed by an order of magnitude” (1.2 MB of text)",
			Measures:   "the bytewise count's time ÷ the buffered count's, on 1 CPU (claim: at least ×10)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(10), CPUs: []int{1}, cost: 0.1,
			sample: wordcountFigure(metric("buffered", 1, "speedup")),
		},
		{
			Name: "profiling/reused-allocs", Text: "Reusing the read buffer leaves next to no allocations",
			SeedFigure: "“instead of allocating a buffer on the stack which escapes to the heap every single time we call rebate we're just going to reuse that buffer” (an allocation a read before, none after)",
			Measures:   "allocations per count with the reused buffer ÷ with the buffered reader that allocates per byte, on 1 CPU (claim: at most 1 %)",
			Unit:       lesson.Share, Rule: lesson.AtMost(0.01), CPUs: []int{1}, cost: 0.1,
			sample: wordcountFigure(metricRatio("allocs_per_op", "reused", 1, "buffered", 1)),
		},
	}
	return fromSeed(profilingSeed, claims)
}

// renderFigure samples figure of the render lab's points on n CPUs.
func renderFigure(n int, figure func([]results.Point) (float64, error)) sampler {
	return labSample(render.Run, func(e Env) (render.Config, []int) {
		c := render.DefaultConfig()
		c.Size, c.Reps = pick(e.Level, 64, 256, 512), pick(e.Level, 1, 1, 3)
		return c, []int{n}
	}, figure)
}

// wordcountFigure samples figure of the wordcount lab's points on 1 CPU.
func wordcountFigure(figure func([]results.Point) (float64, error)) sampler {
	return labSample(wordcount.Run, func(e Env) (wordcount.Config, []int) {
		return wordcount.Config{Size: pick(e.Level, 20_000, 100_000, 300_000), Reps: pick(e.Level, 1, 1, 3)}, []int{1}
	}, figure)
}

// The journal of posts on streaming over gRPC, aggregating channel reads,
// actors and synchronized writes, whose write benchmarks ran on 4 cores.
const (
	journalSeed    = "journal-streaming-actors-syncwrite.txt"
	journalCPUs    = 4
	journalClients = 16 // of the identity service
	logWriters     = 8  // sharing the log in the naive-sum claim
)

// journalClaims are the journal's: on actors against a mutex, streaming
// replies, the messenger's buffer, grouping events, and summed latencies.
func journalClaims(cpus int) []Claim {
	n := top(cpus, journalCPUs)
	noPenalty := lesson.Between(0.8, 1.25) // "about as many": within a fifth either way
	claims := []Claim{
		{
			Name: "journal/actor-vs-mutex", Text: "An actor (a goroutine owning the counter, fed by a mailbox) serves about as many requests as one mutex",
			SeedFigure: "“it does not appear that the actor model described in these posts adds overhead that penalizes performance” (chart only)",
			Measures:   fmt.Sprintf("the actor's identities/s ÷ simple's (one mutex around each request), %d clients in process, %d CPUs (claim: ×0.8 to ×1.25)", journalClients, n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.1,
			sample: actorsRatio(n, false),
		},
		{
			Name: "journal/actor-vs-mutex-grpc", Text: "Served over gRPC, as the journal's identity service is, an actor serves about as many requests as one mutex",
			SeedFigure: "“it does not appear that the actor model described in these posts adds overhead that penalizes performance” (gRPC servers, chart only)",
			Measures:   fmt.Sprintf("the actor's identities/s ÷ simple's, each behind a gRPC server on 127.0.0.1, %d clients, %d CPUs (claim: ×0.8 to ×1.25)", journalClients, n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.3,
			sample: actorsRatio(n, true),
		},
		{
			Name: "journal/async-vs-sync", Text: "Receiving replies in a listener goroutine (async) streams far more messages than waiting for each reply (sync)",
			SeedFigure: "“In sync mode, we can simply receive the reply before we send the next message.” … “it does not perform well at all” (“5000 messages each in their own go routine”, chart only)",
			Measures:   fmt.Sprintf("async's messages/s ÷ sync's over one gRPC stream, each message from its own goroutine, messenger buffer 10, %d CPUs (claim: at least ×2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(2), CPUs: []int{n}, cost: 0.3,
			sample: streamRatio(n, []string{stream.ModeSync, stream.ModeAsync}, []int{10},
				stream.Variant(stream.ModeAsync, 10, false), stream.Variant(stream.ModeSync, 10, false)),
		},
		{
			Name: "journal/buffer-little", Text: "The size of the messenger's channel buffer matters little",
			SeedFigure: "“Buffer size only has a small impact” (chart only)",
			Measures:   fmt.Sprintf("async's messages/s with a messenger buffer of 1000 ÷ with none, %d CPUs (claim: ×0.8 to ×1.25)", n),
			Unit:       lesson.Ratio, Rule: noPenalty, CPUs: []int{n}, cost: 0.3,
			sample: streamRatio(n, []string{stream.ModeAsync}, []int{0, 1000},
				stream.Variant(stream.ModeAsync, 1000, false), stream.Variant(stream.ModeAsync, 0, false)),
		},
		{
			Name: "journal/grouping", Text: "Reading a run of identical events off the channel at once, handled in one call, pays for itself",
			SeedFigure: "“What we would like to do is read all of the same type of event that is on the buffered channel at once, handling them all simultaneously” … “in the event stream aaaabbb, the calls to handle will be (a, 4), (b, 1), (b, 2)” (no speed figure)",
			Correction: "the seed prints (a, 4), (b, 1), (b, 2), its own \"obvious problem\"; brewput's grouping gives (a, 4), (b, 3); the seed claims no speed-up: whether grouping pays is brewput's question",
			Measures:   fmt.Sprintf("events/s grouped ÷ one call per event; 2 producers, runs of 8 on average, a 2 µs call, channel of 100, %d CPUs (claim: at least ×1.2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(1.2), CPUs: []int{n}, cost: 0.1,
			sample: labSample(aggregate.Run, func(e Env) (aggregate.Config, []int) {
				return aggregate.Config{Events: pick(e.Level, 3000, 20_000, 100_000), Producers: []int{2}, Buffers: []int{100},
					RunLength: 8, HandleCost: 2 * time.Microsecond, Seed: 1, Reps: pick(e.Level, 1, 1, 3)}, []int{n}
			}, metric(aggregate.Variant(aggregate.Grouped, 2, 100), n, "speedup")),
		},
		{
			Name: "journal/naive-sum", Text: "Adding up t writers' latencies overstates a serialized log's time about t-fold",
			SeedFigure: "“each thread returns a latency of n*t*w from it’s perspective. If this is aggregated, the total time is computed n*w*t^2, even though the real time that has passed is actually n*t*w” (writes serialized by the log's mutex: ×t)",
			Measures:   fmt.Sprintf("the sum of %d writers' append latencies ÷ the wall time, as a share of %d; a file log whose appends only the log's mutex serializes, as in the seed (no fsync), %d CPUs (claim: at least 75 %%)", logWriters, logWriters, n),
			Unit:       lesson.Share, Rule: lesson.AtLeast(0.75), CPUs: []int{n}, cost: 0.3,
			sample: naiveSum(n, false, [3]int{400, 10_000, 50_000}),
		},
		{
			Name: "journal/naive-sum-fsync", Text: "Adding up t writers' latencies overstates the time of a log that fsyncs each append about t-fold",
			SeedFigure: "“each thread returns a latency of n*t*w from it’s perspective. If this is aggregated, the total time is computed n*w*t^2, even though the real time that has passed is actually n*t*w” (writes serialized by the log's mutex: ×t)",
			Measures:   fmt.Sprintf("the sum of %d writers' append latencies ÷ the wall time, as a share of %d; a file log with an fsync per append (brewput's setting, not the seed's), %d CPUs (claim: at least 75 %%)", logWriters, logWriters, n),
			Unit:       lesson.Share, Rule: lesson.AtLeast(0.75), CPUs: []int{n}, cost: 0.3,
			sample: naiveSum(n, true, [3]int{40, 800, 2000}),
		},
	}
	return fromSeed(journalSeed, claims)
}

// naiveSum samples the overstatement of logWriters' summed latencies, as a
// share of logWriters, on a file log on n CPUs, with appends by level.
func naiveSum(n int, sync bool, appends [3]int) sampler {
	return labSample(logs.Run, func(e Env) (logs.Config, []int) {
		return logs.Config{Kinds: []logs.Kind{logs.File}, Writers: []int{logWriters}, Appends: pick(e.Level, appends[0], appends[1], appends[2]),
			ValueBytes: 100, Sync: sync, Reps: 1}, []int{n}
	}, func(points []results.Point) (float64, error) {
		o, err := metricOf(points, logs.Variant(logs.File, sync), n, "overstatement")
		return o / logWriters, err
	})
}

// actorsRatio samples the actor's throughput over simple's on n CPUs, in
// process or over gRPC.
func actorsRatio(n int, remote bool) sampler {
	prefix := map[bool]string{true: actors.RemotePrefix}[remote]
	return labSample(actors.Run, func(e Env) (actors.Config, []int) {
		c := actors.DefaultConfig()
		c.Variants, c.Clients = []string{actors.Simple, actors.Actor}, []int{journalClients}
		if e.Index%2 == 1 {
			c.Variants = []string{actors.Actor, actors.Simple}
		}
		c.Requests, c.RemoteRequests = pick(e.Level, 5000, 20_000, 100_000), pick(e.Level, 500, 2000, 5000)
		c.Remote, c.Reps = remote, pick(e.Level, 1, 1, 3)
		return c, []int{n}
	}, metricRatio("", prefix+actors.Actor, n, prefix+actors.Simple, n))
}

// streamRatio samples the throughput of variant a over that of b, from
// one run of modes and buffers on n CPUs.
func streamRatio(n int, modes []string, buffers []int, a, b string) sampler {
	return labSample(stream.Run, func(e Env) (stream.Config, []int) {
		c := stream.DefaultConfig()
		c.Modes, c.Buffers = modes, buffers
		if len(buffers) == 2 {
			c.Buffers = inTurn(e, buffers[0], buffers[1])
		}
		c.Messages, c.Reps = pick(e.Level, 300, 1000, 5000), pick(e.Level, 1, 1, 3)
		return c, []int{n}
	}, metricRatio("", a, n, b, n))
}

// labSample samples figure of the points a lab's run measures with the
// configuration and CPU counts setup makes.
func labSample[C any](run func(context.Context, C, []int, func(results.LabEvent)) ([]results.Point, error), setup func(Env) (C, []int),
	figure func([]results.Point) (float64, error)) sampler {
	return func(ctx context.Context, e Env) (float64, error) {
		c, cpus := setup(e)
		points, err := run(ctx, c, cpus, nil)
		if err != nil {
			return 0, err
		}
		return figure(points)
	}
}

// metricOf is the metric name ("" for the throughput) of variant's point
// on cpus CPUs among the points of a lab's run.
func metricOf(points []results.Point, variant string, cpus int, name string) (float64, error) {
	i := slices.IndexFunc(points, func(p results.Point) bool { return p.Variant() == variant && p.CPUs == cpus })
	if i < 0 {
		return 0, fmt.Errorf("no point of %s on %d CPUs among the %d measured", variant, cpus, len(points))
	}
	p := points[i]
	if name == "" {
		return p.Throughput, nil
	}
	v, ok := p.Metrics[results.Metric(name)]
	if !ok {
		return 0, fmt.Errorf("%s %s on %d CPUs has no metric %q", p.LabName(), p.Variant(), p.CPUs, name)
	}
	return v, nil
}

// metric is the figure metricOf; metricRatio that of variant a on ca CPUs
// over that of b on cb.
func metric(variant string, cpus int, name string) func([]results.Point) (float64, error) {
	return func(points []results.Point) (float64, error) { return metricOf(points, variant, cpus, name) }
}
func metricRatio(name, a string, ca int, b string, cb int) func([]results.Point) (float64, error) {
	return func(points []results.Point) (float64, error) {
		va, err := metricOf(points, a, ca, name)
		if err != nil {
			return 0, err
		}
		vb, err := metricOf(points, b, cb, name)
		if err != nil {
			return 0, err
		}
		return ratio(va, vb, strings.TrimSpace(b+" "+name))
	}
}
