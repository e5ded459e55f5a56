package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/logs"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

func logsLab() labEntry {
	return labEntry{
		name: logs.Name, summary: logs.Summary, help: logs.Help,
		example: `  brewput lab logs
  brewput lab logs --sync --kinds file,leveldb
  brewput lab logs --kinds file --writers 1,4,16 --dir /mnt/disk --format json --out logs.json`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := logs.DefaultConfig()
			kinds := make([]string, len(c.Kinds))
			for i, k := range c.Kinds {
				kinds[i] = string(k)
			}
			fs.StringSliceVar(&kinds, "kinds", kinds, "kinds of log to measure: memory, file, leveldb")
			fs.IntSliceVar(&c.Writers, "writers", c.Writers, "writer goroutine counts t to sweep")
			fs.IntVar(&c.Appends, "appends", c.Appends, fmt.Sprintf("appends per run, all writers together (the same at every t); %d with --sync unless given", logs.DefaultSyncAppends))
			fs.IntVar(&c.ValueBytes, "value-bytes", c.ValueBytes, "bytes in each appended value")
			fs.BoolVar(&c.Sync, "sync", c.Sync, "fsync every append of the file and LevelDB logs (the memory log has nothing to sync)")
			fs.StringVar(&c.Dir, "dir", c.Dir, "folder, hence file system and disk, for the logs (default: the temporary folder); the lab removes its logs afterwards")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the run of median wall time")
			return func() (labRun, error) {
				c.Kinds = make([]logs.Kind, len(kinds))
				for i, k := range kinds {
					c.Kinds[i] = logs.Kind(k)
				}
				if c.Sync && !fs.Changed("appends") {
					c.Appends = logs.DefaultSyncAppends
				}
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return logs.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}
