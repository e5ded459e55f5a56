package lessons

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/lab/channels"
)

// channelsSeed is the French article on channels and contention ("GO et
// chan").
const channelsSeed = "channels-and-contention-fr.txt"

// The article's setup: a channel of 25 messages, 3 consumers, on 4 CPUs.
const (
	channelsSize      = 25
	channelsConsumers = 3
	channelsCPUs      = 4
	channelsBatch     = 1000
)

// channelsClaims are the article's: single lines through a channel stay far
// from what the CPUs allow, batching closes the gap, a larger channel
// helps a little, and the contention was worst on 1 CPU.
func channelsClaims(cpus int) []Claim {
	n := top(cpus, channelsCPUs)
	claims := []Claim{
		{
			Name: "channels/batch1-far", Text: "One line per message, one producer and 3 consumers stay far from what the CPUs allow",
			SeedFigure: "50 s for 10 M lines where 15 s would do: 30 % of the bound, CPUs 41 % busy (channel of 25, 3 consumers, 4 CPUs)",
			Measures:   fmt.Sprintf("lines/s as a share of the bound the producer's and a consumer's rates alone and the CPUs allow; channel of 25, 3 consumers, 1 line a message, %d CPUs (claim: at most 75 %%)", n),
			Unit:       lesson.Share, Rule: lesson.AtMost(0.75), CPUs: []int{n}, cost: 0.15,
			sample: func(ctx context.Context, e Env) (float64, error) {
				points, err := channels.Run(ctx, channelsConfig(e.Level, []int{channelsSize}, []int{1}), []int{n}, nil)
				return metricOf(points, err, channels.Variant(channelsSize, channelsConsumers, 1), n, "of_bound")
			},
		},
		{
			Name: "channels/batching", Text: "Sending lines in batches closes most of the gap to the bound",
			SeedFigure: "50 s → 23 s with batches of 1000 lines (×2.2), against the 15 s bound",
			Measures:   fmt.Sprintf("share of the bound with batches of 1000 lines ÷ with 1 line a message; channel of 25, 3 consumers, %d CPUs (claim: at least ×1.3)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(1.3), CPUs: []int{n}, cost: 0.25,
			sample: func(ctx context.Context, e Env) (float64, error) {
				points, err := channels.Run(ctx, channelsConfig(e.Level, []int{channelsSize}, inTurn(e, 1, channelsBatch)), []int{n}, nil)
				return metricRatio(points, err, "of_bound",
					channels.Variant(channelsSize, channelsConsumers, channelsBatch), n,
					channels.Variant(channelsSize, channelsConsumers, 1), n)
			},
		},
		{
			Name: "channels/size-helps", Text: "A larger channel helps single lines through, a little",
			SeedFigure: "50 s with 25 slots, about 26 s from 100 slots on (×1.9), still far from the 15 s bound",
			Measures:   fmt.Sprintf("lines/s through a channel of 100 ÷ through a channel of 1; 3 consumers, 1 line a message, %d CPUs (claim: at least ×1.05)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(1.05), CPUs: []int{n}, cost: 0.25,
			sample: func(ctx context.Context, e Env) (float64, error) {
				points, err := channels.Run(ctx, channelsConfig(e.Level, inTurn(e, 1, 100), []int{1}), []int{n}, nil)
				return metricRatio(points, err, "",
					channels.Variant(100, channelsConsumers, 1), n,
					channels.Variant(1, channelsConsumers, 1), n)
			},
		},
		{
			Name: "channels/one-cpu", Text: "The contention is worst on 1 CPU (an InfluxDB slowdown that went away with 4 CPUs)",
			SeedFigure: "InfluxDB slow and CPU- and memory-hungry on 1 CPU, fine on 4 (influxdb issue 22384); no figure",
			Measures:   fmt.Sprintf("share of the bound on 1 CPU ÷ on %d CPUs; channel of 25, 3 consumers, 1 line a message (claim: at most ×0.9)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(0.9), CPUs: []int{1, n}, cost: 0.3,
			sample: func(ctx context.Context, e Env) (float64, error) {
				points, err := channels.Run(ctx, channelsConfig(e.Level, []int{channelsSize}, []int{1}), inTurn(e, 1, n), nil)
				v := channels.Variant(channelsSize, channelsConsumers, 1)
				return metricRatio(points, err, "of_bound", v, 1, v, n)
			},
		},
	}
	return fromSeed(channelsSeed, claims)
}

// channelsConfig is the article's experiment (300-byte lines, 5 SHA-1 sums
// each, 3 consumers) with the given channel sizes and batch sizes, and as
// many lines as l asks for.
func channelsConfig(l Level, sizes, batches []int) channels.Config {
	c := channels.DefaultConfig()
	c.Lines = pick(l, 3000, 20_000, 60_000)
	c.Sizes, c.Consumers, c.Batches = sizes, []int{channelsConsumers}, batches
	return c
}
