package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
)

// recordMarker, alone on the line before a fenced block of README.md or
// docs/, names the file of a real run the block shows; the block starts
// with the command that made it ("$ brewput lessons --quick"), and
// TestDocRecords prints the run again from the file with the current code.
// A line "…" in the block stands for the output's middle: the lines
// before it are the output's first, those after it its last.
const recordMarker = "<!-- recorded run: "

// recordEnv, set to a record's path, makes TestDocRecords measure that
// record again on this machine before it prints it (brewput why's runs;
// brewput lessons --format json --out FILE records a lessons run itself).
const recordEnv = "BREWPUT_RECORD"

// docRecord is a fenced block that shows a recorded run.
type docRecord struct {
	file, path string
	line       int      // of the command, from 1
	args       []string // the command's, after "brewput"
	start, end int      // the output's lines in the file, [start, end)
}

// docRecords finds the blocks of lines that show recorded runs.
func docRecords(t *testing.T, file string, lines []string) []docRecord {
	var out []docRecord
	for i, l := range lines {
		path, ok := strings.CutPrefix(l, recordMarker)
		if !ok {
			continue
		}
		path = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(path), "-->"))
		if i+2 >= len(lines) || lines[i+1] != "```" {
			t.Errorf("%s:%d: %s is not followed by a fenced block", file, i+1, strings.TrimSpace(l))
			continue
		}
		cmd, next := commandAt(lines, i+2)
		rest, ok := strings.CutPrefix(cmd, "$ brewput ")
		if !ok {
			t.Errorf("%s:%d: a recorded run's block starts with its command, \"$ brewput …\"; found %q", file, i+3, lines[i+2])
			continue
		}
		r := docRecord{file: file, path: path, line: i + 3, args: strings.Fields(rest), start: next}
		for r.end = r.start; r.end < len(lines) && !strings.HasPrefix(lines[r.end], "```"); r.end++ {
		}
		out = append(out, r)
	}
	return out
}

// commandAt is the command that starts at line i, its continuation lines
// (a line ending " \") joined, and the index of the line after it.
func commandAt(lines []string, i int) (string, int) {
	cmd := lines[i]
	for i++; strings.HasSuffix(cmd, " \\") && i < len(lines); i++ {
		cmd = strings.TrimSuffix(cmd, "\\") + strings.TrimSpace(lines[i])
	}
	return cmd, i
}

// TestDocRecords: a block that shows a recorded run (recordMarker) is what
// the current code prints of that run; -update rewrites the block.
func TestDocRecords(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, file := range append([]string{filepath.Join(root, "README.md")}, files...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		records := docRecords(t, file, lines)
		// From the last, so that rewriting one leaves the others' lines
		// where they were found.
		for k := len(records) - 1; k >= 0; k-- {
			r := records[k]
			seen++
			printed, err := printRecord(t, filepath.Join(root, r.path), r.args)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", r.file, r.line, r.path, err)
				continue
			}
			got := strings.Split(strings.TrimRight(printed, "\n"), "\n")
			want := lines[r.start:r.end]
			shown := elide(got, want)
			if slices.Equal(shown, want) {
				continue
			}
			if *update {
				lines = slices.Concat(lines[:r.start], shown, lines[r.end:])
				continue
			}
			t.Errorf("%s:%d: brewput %s prints %s otherwise than shown (go test ./cmd/brewput/internal/driver -run TestDocRecords -update rewrites it):\n%s",
				r.file, r.line, strings.Join(r.args, " "), r.path, firstDifference(strings.Join(want, "\n"), strings.Join(shown, "\n")))
		}
		if *update {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no recorded run found in README.md or docs/: the marker or the docs changed")
	}
}

// elide is got as a block that shows it as want does: its first lines and
// its last around a line "…" where want has one, as many as want shows.
func elide(got, want []string) []string {
	cut := slices.Index(want, "…")
	if cut < 0 {
		return got
	}
	head, tail := cut, len(want)-cut-1
	if head+tail >= len(got) {
		return got
	}
	return slices.Concat(got[:head], []string{"…"}, got[len(got)-tail:])
}

// printRecord prints the recorded run at path as brewput args prints it.
func printRecord(t *testing.T, path string, args []string) (string, error) {
	var b strings.Builder
	switch args[0] {
	case "lessons":
		rs, err := lesson.ReadFile(path)
		if err != nil {
			return "", err
		}
		err = text.WriteLessons(&b, rs)
		return b.String(), err
	case "why":
		if env := os.Getenv(recordEnv); env != "" && strings.HasSuffix(filepath.Clean(path), filepath.Clean(env)) {
			if err := recordWhy(t, path, args); err != nil {
				return "", err
			}
		}
		study, err := replayWhy(path, args)
		if err != nil {
			return "", err
		}
		err = text.WriteReliefs(&b, study.Reliefs())
		return b.String(), err
	}
	return "", fmt.Errorf("brewput %s: no way to print a recorded run of it", args[0])
}

// whyRecord is what brewput why measured: each run's points, by what ran
// ("as it is", or a relief as the model names it), on a machine of CPUs.
type whyRecord struct {
	Recorded time.Time `json:"recorded"`
	CPUs     int       `json:"cpus"`
	Runs     []whyRun  `json:"runs"`
}

type whyRun struct {
	What   string          `json:"what"`
	Points []results.Point `json:"points"`
}

// planWhy plans brewput why args (after "brewput") on a machine of cpus
// CPUs, as the command does: the point, the model's causal profile of it,
// each relief to measure; and the rounds to run.
func planWhy(ctx context.Context, args []string, cpus int) (*why.Check, int, error) {
	fs := pflag.NewFlagSet("why", pflag.ContinueOnError)
	sf := &modelcli.StudyFlags{}
	mf := &modelcli.ModelFlags{}
	var mode string
	sf.RegisterOne(fs, 500*time.Millisecond, "", "dur", "burn", "count")
	modelcli.SetDefault(fs, "count", "6", "")
	fs.StringVar(&mode, "mode", "", "")
	mf.Register(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return nil, 0, err
	}
	s, err := sf.PlanOne(fs, cpus, mode, "why", 2)
	if err != nil {
		return nil, 0, err
	}
	cfg, err := predict.WhyConfig(s, mf.Seed)
	if err != nil {
		return nil, 0, err
	}
	pr, err := predict.Resolve(ctx, mf.PredictOptions(fs), func(string) {})
	if err != nil {
		return nil, 0, err
	}
	profile, err := pr.CausalProfile(ctx, cfg)
	if err != nil {
		return nil, 0, err
	}
	study, err := why.Plan(profile, s, cpus)
	if err != nil {
		return nil, 0, err
	}
	study.Calibration = costsLine(pr)
	return study, sf.Count, nil
}

// recordWhy measures brewput why args on this machine, as the command
// does (each run in a child process pinned to its CPUs), and writes what
// it measured to path.
func recordWhy(t *testing.T, path string, args []string) error {
	ctx := context.Background()
	study, count, err := planWhy(ctx, args, runtime.NumCPU())
	if err != nil {
		return err
	}
	runner := shopsweep.Runner{Path: os.Args[0], Args: []string{"point"}, Env: []string{testMainEnv + "=1"}}
	rec := whyRecord{Recorded: time.Now().UTC().Truncate(time.Second), CPUs: runtime.NumCPU()}
	if err := study.Run(ctx, count, runner.Run, os.Stderr); err != nil {
		return err
	}
	rec.Runs = append(rec.Runs, whyRun{"as it is", study.BasePoints})
	for _, e := range study.Experiments {
		if len(e.Points) > 0 {
			rec.Runs = append(rec.Runs, whyRun{text.ChangeText(e.Model), e.Points})
		}
	}
	data, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// replayWhy is brewput why args as it judged the runs recorded at path:
// planned by the current code on the recording machine's CPUs, its
// measurements the recorded ones.
func replayWhy(path string, args []string) (*why.Check, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec whyRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	study, _, err := planWhy(context.Background(), args, rec.CPUs)
	if err != nil {
		return nil, err
	}
	runs := map[string][]results.Point{}
	for _, r := range rec.Runs {
		runs[r.What] = r.Points
	}
	study.BasePoints = runs["as it is"]
	delete(runs, "as it is")
	if len(study.BasePoints) == 0 {
		return nil, fmt.Errorf("no run of the point as it is")
	}
	for i := range study.Experiments {
		e := &study.Experiments[i]
		if e.Skip != "" {
			continue
		}
		if e.Points = runs[text.ChangeText(e.Model)]; len(e.Points) == 0 {
			return nil, fmt.Errorf("%q is measured now but was not then: record it again (%s=%s)", text.ChangeText(e.Model), recordEnv, path)
		}
		delete(runs, text.ChangeText(e.Model))
	}
	for what := range runs {
		return nil, fmt.Errorf("%q was measured then but is not now: record it again (%s=%s)", what, recordEnv, path)
	}
	study.Judge(compare.Options{})
	return study, nil
}
