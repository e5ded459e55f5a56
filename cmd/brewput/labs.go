package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/channels"
	"github.com/brewput/brewput/lab/render"
	"github.com/brewput/brewput/lab/wordcount"
	"github.com/brewput/brewput/lab/workloads"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

// Each lab's flags map onto its package's Config; the package checks the
// values, and its messages start with the flag's name, so a usage error
// is "--" and the message.

func workloadsLab() labEntry {
	return labEntry{
		name: workloads.Name, summary: workloads.Summary, help: workloads.Help,
		example: `  brewput lab workloads
  brewput lab workloads --cpus 1 --sort-size 5000 --docs 200
  brewput lab workloads --wait 0 --format json --out workloads.json`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := workloads.DefaultConfig()
			fs.IntVar(&c.AddSize, "add-size", c.AddSize, "add: integers summed")
			fs.IntVar(&c.SortSize, "sort-size", c.SortSize, "sort: integers bubble-sorted (time grows with its square)")
			fs.IntVar(&c.Docs, "docs", c.Docs, "find: XML documents searched")
			fs.DurationVar(&c.Wait, "wait", c.Wait, "find: blocking wait before each document, standing for the disk (0: CPU-bound)")
			fs.StringVar(&c.Topic, "topic", c.Topic, "find: the word searched for")
			fs.IntVar(&c.Workers, "workers", c.Workers, "find: goroutines in the concurrent pool (0: one per CPU of the machine)")
			fs.IntVar(&c.Goroutines, "goroutines", c.Goroutines, "add and sort: parts, one goroutine each (0: one per CPU of the machine)")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each variant at each CPU count; a point reports the median")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return workloads.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}

func channelsLab() labEntry {
	return labEntry{
		name: channels.Name, summary: channels.Summary, help: channels.Help,
		example: `  brewput lab channels
  brewput lab channels --size 1,100 --consumers 2 --batch 1,10,100,1000
  brewput lab channels --cpus 1 --format json --out channels.json`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := channels.DefaultConfig()
			fs.IntVar(&c.Lines, "lines", c.Lines, "lines the producer makes for each point")
			fs.IntVar(&c.LineBytes, "line-bytes", c.LineBytes, "bytes in a line")
			fs.IntVar(&c.Hashes, "hashes", c.Hashes, "SHA-1 sums a consumer computes of each line")
			fs.IntSliceVar(&c.Sizes, "size", c.Sizes, "channel buffer sizes S to sweep, in messages")
			fs.IntSliceVar(&c.Consumers, "consumers", c.Consumers, "consumer counts M to sweep")
			fs.IntSliceVar(&c.Batches, "batch", c.Batches, "batch sizes B to sweep, in lines per message")
			fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the producer's random lines")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return channels.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}

func renderLab() labEntry {
	return labEntry{
		name: render.Name, summary: render.Summary, help: render.Help,
		example: `  brewput lab render
  brewput lab render --png mandelbrot.png
  brewput lab render --size 512 --max-iter 256 --workers 8`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := render.DefaultConfig()
			fs.IntVar(&c.Size, "size", c.Size, "the image's width and height in pixels")
			fs.IntVar(&c.MaxIter, "max-iter", c.MaxIter, "most iterations per pixel: the work per pixel")
			fs.IntVar(&c.Workers, "workers", c.Workers, "pool size of the workers variant (0: one per CPU)")
			fs.IntVar(&c.Reps, "reps", c.Reps, "renders of each variant at each CPU count; a point reports the medians")
			fs.StringVar(&c.PNG, "png", c.PNG, "write the rendered image to this PNG file")
			fs.IntSliceVar(&c.ModelCPUs, "model-cpus", c.ModelCPUs, "CPU counts of Amdahl's curve")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return render.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}

func wordcountLab() labEntry {
	return labEntry{
		name: wordcount.Name, summary: wordcount.Summary, help: wordcount.Help,
		example: `  brewput lab wordcount
  brewput lab wordcount --file /usr/share/common-licenses/GPL-3
  brewput lab wordcount --size 5000000 --reps 3`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := wordcount.DefaultConfig()
			fs.StringVar(&c.File, "file", c.File, "count this file's words (default: a generated text of --size bytes)")
			fs.IntVar(&c.Size, "size", c.Size, "bytes of the generated text")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each way of reading at each CPU count; a point reports the median")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return wordcount.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}
