package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// TestBadInput checks that every bad input is a usage error (exit 2) with
// one line on stderr that names the flag or the problem, nothing on stdout,
// nothing measured and no file left behind. In args, {dir} is an empty
// directory of the case's own, checked to be still empty afterwards.
func TestBadInput(t *testing.T) {
	// Runs after the parallel subtests.
	t.Cleanup(func() {
		if _, err := os.Stat("/nonexistent-dir"); err == nil {
			t.Errorf("/nonexistent-dir exists after the tests")
		}
	})
	cpuCount := fmt.Sprintf("this machine has %d", runtime.NumCPU())
	cases := []struct {
		name string
		args []string
		want []string // fragments of the error line
	}{
		{"unknown mode", []string{"run", "--modes", "foo"}, []string{"--modes", `unknown mode "foo"`, "finelocking"}},
		{"unknown mode among good ones", []string{"run", "--modes", "noop,foo,locking"}, []string{"--modes", `"foo"`}},
		{"multi-0", []string{"run", "--modes", "multi-0"}, []string{"--modes", `"multi-0"`, "≥ 1"}},
		{"multi-x", []string{"run", "--modes", "multi-x"}, []string{"--modes", `"multi-x"`}},
		{"multi without N", []string{"run", "--modes", "multi"}, []string{"--modes", `"multi"`}},
		{"linearpipe--1", []string{"run", "--modes", "linearpipe--1"}, []string{"--modes", `"linearpipe--1"`, "≥ 0"}},
		{"number on a family without one", []string{"run", "--modes", "locking-2"}, []string{"--modes", `"locking-2"`, "takes no number"}},
		{"empty modes", []string{"run", "--modes", ""}, []string{"--modes", "unknown mode"}},
		{"zero dur", []string{"run", "--dur", "0s"}, []string{"--dur 0s", "positive"}},
		{"negative dur", []string{"run", "--dur", "-1s"}, []string{"--dur -1s", "positive"}},
		{"unparseable dur", []string{"run", "--dur", "abc"}, []string{`"--dur"`, `"abc"`, "want a duration"}},
		{"negative warmup", []string{"run", "--warmup", "-1s"}, []string{"--warmup -1s"}},
		{"negative par", []string{"run", "--par", "-1"}, []string{"--par -1"}},
		{"unparseable par", []string{"run", "--par", "two"}, []string{`"--par"`, `"two"`}},
		{"zero cpus", []string{"run", "--cpus", "0"}, []string{"--cpus", "0 CPUs", "at least 1"}},
		{"too many cpus", []string{"run", "--cpus", "999"}, []string{"--cpus", "999 CPUs", cpuCount}},
		{"range past the machine", []string{"run", "--cpus", "1-999"}, []string{"--cpus", cpuCount}},
		{"backwards cpu range", []string{"run", "--cpus", "2-1"}, []string{"--cpus", `"2-1"`}},
		{"cpus not a number", []string{"run", "--cpus", "x"}, []string{"--cpus", `"x"`}},
		{"negative cpus", []string{"run", "--cpus", "-1"}, []string{"--cpus", `"-1"`}},
		{"maxq without rate", []string{"run", "--maxq", "5"}, []string{"--maxq", "--rate"}},
		{"zero rate", []string{"run", "--rate", "0"}, []string{"--rate 0", "positive"}},
		{"negative rate", []string{"run", "--rate", "-3"}, []string{"--rate -3", "positive"}},
		{"rate and interval", []string{"run", "--rate", "10", "--interval", "1ms"}, []string{"--rate and --interval"}},
		{"zero interval", []string{"run", "--interval", "0s"}, []string{"--interval 0s"}},
		{"negative maxq", []string{"run", "--rate", "10", "--maxq", "-1"}, []string{"--maxq -1"}},
		{"negative jitter", []string{"run", "--jitter", "-1ms"}, []string{"--jitter -1ms"}},
		{"negative grind", []string{"run", "--grind", "-1ms"}, []string{"--grind -1ms"}},
		{"negative latte", []string{"run", "--latte", "-1ms"}, []string{"--latte -1ms"}},
		{"negative combine", []string{"run", "--combine", "-1ms"}, []string{"--combine -1ms"}},
		{"combine past the window", []string{"run", "--combine", "2s", "--dur", "1s"}, []string{"--combine 2s", "at most the --dur window"}},
		{"unknown burn clock", []string{"run", "--burn", "foo"}, []string{"--burn", `"foo"`}},
		{"unknown format", []string{"run", "--format", "xml"}, []string{"--format", `"xml"`, "json"}},
		{"unwritable out", []string{"run", "--modes", "noop", "--out", "/nonexistent-dir/x.json"}, []string{"--out /nonexistent-dir/x.json", "cannot write"}},
		{"out is a directory", []string{"run", "--modes", "noop", "--out", "{dir}"}, []string{"--out", "is a directory"}},
		{"bad flag with a good out", []string{"run", "--dur", "0s", "--out", "{dir}/r.json"}, []string{"--dur 0s"}},
		{"bad format with a good out", []string{"run", "--format", "xml", "--out", "{dir}/r.json"}, []string{"--format"}},
		{"unknown flag", []string{"run", "--bogus"}, []string{"unknown flag", "--bogus"}},
		{"unknown flag on root", []string{"--bogus"}, []string{"unknown flag", "--bogus"}},
		{"unknown subcommand", []string{"brew"}, []string{`unknown command "brew"`}},
		{"run extra argument", []string{"run", "extra-arg"}, []string{"brewput run", `"extra-arg"`}},
		{"list extra argument", []string{"list", "extra-arg"}, []string{"brewput list", `"extra-arg"`}},
		{"list unknown flag", []string{"list", "--modes", "noop"}, []string{"unknown flag", "--modes"}},
		{"root unknown mode", []string{"--modes", "foo"}, []string{"--modes", `unknown mode "foo"`}},
		{"root bad cpus", []string{"--cpus", "999"}, []string{"--cpus", cpuCount}},
		{"root zero dur", []string{"--dur", "0s"}, []string{"--dur 0s"}},
		{"root format", []string{"--format", "json"}, []string{"--format \"json\"", "compact or table"}},
		{"root out is a file", []string{"--modes", "noop", "--out", "{good}"}, []string{"--out", "is a file; want a folder"}},
		{"root out under a file", []string{"--modes", "noop", "--out", "{good}/report"}, []string{"--out", "is a file"}},
		{"zero count", []string{"run", "--count", "0"}, []string{"--count 0", "1 or more"}},
		{"root negative count", []string{"--count", "-2"}, []string{"--count -2"}},
		{"report without files", []string{"report"}, []string{"at least one results file"}},
		{"report missing file", []string{"report", "{dir}/nope.json", "--out", "{dir}/r"}, []string{"nope.json", "no such file"}},
		{"report garbage file", []string{"report", "{garbage}", "--out", "{dir}/r"}, []string{"garbage.txt", "not a brewput results file"}},
		{"bench col not of the names", []string{"bench", "../../../../examples/cache", "-col", ".config"}, []string{"-col", `".config"`, "want .name or /key"}},
		{"bench flag with one dash misspelled", []string{"bench", "../../../../examples/cache", "-benchh", "."}, []string{"unknown flag: -benchh", "did you mean -bench?"}},
		{"bench flag misspelled", []string{"bench", "../../../../examples/cache", "--benchh", "."}, []string{"unknown flag: --benchh", "did you mean --bench?"}},
		{"bench cpuset not ids", []string{"bench", "../../../../examples/cache", "--cpuset", "a-b"}, []string{"--cpuset", `"a-b"`, "0-3,6"}},
		{"bench cpuset too few", []string{"bench", "../../../../examples/cache", "-cpu", "1", "--cpuset", "65535"}, []string{"--cpuset 65535", "CPU 65535", "this process may run on"}},
		{"report negative throughput", []string{"report", "{negative}", "--out", "{dir}/r"}, []string{"negative.json", "line 2", "throughput -10 below zero"}},
		{"compare negative throughput", []string{"compare", "{good}", "{negative}"}, []string{"negative.json", "line 2", "below zero"}},
		{"report cpus past int", []string{"report", "{hugecpus}", "--out", "{dir}/r"}, []string{"hugecpus.json", "line 2", "want 1 to 65536"}},
		{"report NaN ns/op", []string{"report", "{nan}", "--out", "{dir}/r"}, []string{"nan.bench", "line 2", "not a finite number"}},
		{"report line too long", []string{"report", "{longline}", "--out", "{dir}/r"}, []string{"long.bench", "after line 2", "longer than"}},
		{"model YAML order past the window", []string{"model", "--sched", "fifo", "--model", "{slow}", "--dur", "1s"}, []string{"--dur 1s", "slow.yaml", "10s"}},
		{"report malformed bench file", []string{"report", "{bench}", "--out", "{dir}/r"}, []string{"old.bench", "line 2", "parsing measurement"}},
		{"report empty file", []string{"report", "{empty}", "--out", "{dir}/r"}, []string{"empty.json", "holds no points"}},
		{"report out is a file", []string{"report", "{good}", "--out", "{good}"}, []string{"--out", "is a file"}},
		{"run dur past a day", []string{"run", "--modes", "noop", "--cpus", "1", "--dur", "1000000h"}, []string{"--dur 1000000h0m0s", "at most 24h0m0s"}},
		{"main job into the working folder", []string{"--modes", "noop", "--cpus", "1", "--out", "."}, []string{"--out .", "working folder", "cannot replace"}},
		{"main job into a parent folder", []string{"--modes", "noop", "--cpus", "1", "--out", ".."}, []string{"--out ..", "working folder or holds it"}},
		{"compare one file", []string{"compare", "{good}"}, []string{"two results files", "got 1"}},
		{"compare three files", []string{"compare", "{good}", "{good}", "{good}"}, []string{"two results files", "got 3"}},
		{"compare missing file", []string{"compare", "{good}", "{dir}/nope.json"}, []string{"nope.json"}},
		{"compare garbage", []string{"compare", "{garbage}", "{good}"}, []string{"garbage.txt", "not a brewput results file"}},
		{"compare alpha", []string{"compare", "--alpha", "1.5", "{good}", "{good}"}, []string{"--alpha", "1.5", "between 0 and 1"}},
		{"compare format", []string{"compare", "--format", "csv", "{good}", "{good}"}, []string{"--format", `"csv"`, "table, json"}},
		// The model's cases that get past the flags run under --sched fifo:
		// under go, brewput model would first measure the default
		// calibration, which a bad input should not cost.
		{"model unknown sched", []string{"model", "--sched", "x", "--out", "{dir}/m.json"}, []string{"--sched", `"x"`, "go or fifo"}},
		{"model zero cpus", []string{"model", "--cpus", "0", "--out", "{dir}/m.json"}, []string{"--cpus", "0 CPUs", "at least 1"}},
		{"model too many cpus", []string{"model", "--cpus", "300", "--out", "{dir}/m.json"}, []string{"--cpus", "300 CPUs", "at most 256"}},
		{"model range past 256", []string{"model", "--cpus", "1-257", "--out", "{dir}/m.json"}, []string{"--cpus", "at most 256"}},
		{"model negative wake", []string{"model", "--wake", "-1ms", "--out", "{dir}/m.json"}, []string{"--wake -1ms", "zero or a positive duration"}},
		{"model unparseable switch", []string{"model", "--switch", "fast", "--out", "{dir}/m.json"}, []string{`"--switch"`, `"fast"`, "want a duration"}},
		{"model others under fifo", []string{"model", "--sched", "fifo", "--others", "0.5", "--out", "{dir}/m.json"}, []string{"--others", "--sched go only"}},
		{"model negative others", []string{"model", "--others", "-1", "--out", "{dir}/m.json"}, []string{"--others -1", "from 0 up"}},
		{"model others past the CPUs", []string{"model", "--cpus", "1,2", "--others", "1.5", "--out", "{dir}/m.json"}, []string{"--others 1.5", "less than the fewest CPUs simulated, 1"}},
		{"model others without a burst", []string{"model", "--others", "0.5", "--others-burst", "0", "--out", "{dir}/m.json"}, []string{"--others-burst 0s", "positive duration"}},
		{"advise others past the CPUs", []string{"advise", "--mode", "ideal", "--cpus", "1", "--others", "2"}, []string{"--others 2", "less than the fewest CPUs simulated, 1"}},
		{"model cost under fifo", []string{"model", "--sched", "fifo", "--wake", "1us", "--out", "{dir}/m.json"}, []string{"--wake", "--sched go only"}},
		{"model calibration under fifo", []string{"model", "--sched", "fifo", "--calibration", "{calibration}", "--out", "{dir}/m.json"}, []string{"--calibration", "--sched go only"}},
		{"model garbage calibration", []string{"model", "--calibration", "{garbage}", "--out", "{dir}/m.json"}, []string{"--calibration", "garbage.txt", "not a brewput calibration"}},
		{"model missing calibration", []string{"model", "--calibration", "{dir}/nope.json", "--out", "{dir}/m.json"}, []string{"--calibration", "nope.json", "no such file"}},
		{"model missing model file", []string{"model", "--sched", "fifo", "--model", "nonexistent.yaml", "--out", "{dir}/m.json"}, []string{"--model", "nonexistent.yaml", "no such file"}},
		{"model bad YAML", []string{"model", "--sched", "fifo", "--model", "{yaml}", "--out", "{dir}/m.json"}, []string{"--model", "bad.yaml", "not valid YAML"}},
		{"model not a blueprint", []string{"model", "--sched", "fifo", "--model", "{garbage}", "--out", "{dir}/m.json"}, []string{"--model", "garbage.txt", "want a blueprint"}},
		{"model shop flag with a blueprint", []string{"model", "--sched", "fifo", "--model", "../../../../examples/cafe.yaml", "--grind", "2ms", "--out", "{dir}/m.json"}, []string{"--grind", "coffee shop's modes", "cafe.yaml"}},
		{"model modes with a blueprint", []string{"model", "--sched", "fifo", "--model", "../../../../examples/cafe.yaml", "--modes", "locking", "--out", "{dir}/m.json"}, []string{"--modes", "cafe.yaml"}},
		{"model closed-loop noop", []string{"model", "--sched", "fifo", "--modes", "noop", "--out", "{dir}/m.json"}, []string{"noop in a closed loop", "takes no virtual time", "open-loop rate"}},
		{"model unknown format", []string{"model", "--format", "xml", "--out", "{dir}/m.json"}, []string{"--format", `"xml"`, "json"}},
		{"model extra argument", []string{"model", "extra-arg"}, []string{"brewput model", `"extra-arg"`}},
		{"model harness with a blueprint", []string{"model", "--sched", "fifo", "--model", "../../../../examples/cafe.yaml", "--harness", "talk", "--out", "{dir}/m.json"}, []string{"--harness", "cafe.yaml"}},
		{"model named machine", []string{"model", "--machine", "c6g.metal", "--out", "{dir}/m.json"}, []string{"--machine", `"c6g.metal"`, "this or unknown"}},
		{"model talk harness open loop", []string{"model", "--sched", "fifo", "--harness", "talk", "--rate", "100", "--out", "{dir}/m.json"}, []string{"--harness talk", "closed loop"}},
		{"run unknown harness", []string{"run", "--harness", "x"}, []string{"--harness", `"x"`, "brewput or talk"}},
		{"run talk harness open loop", []string{"run", "--harness", "talk", "--interval", "1ms"}, []string{"--harness talk", "--interval"}},
		{"calibrate zero repeats", []string{"calibrate", "--repeats", "0", "--out", "{dir}/c.json"}, []string{"--repeats 0", "at least 1"}},
		{"calibrate show with force", []string{"calibrate", "--show", "--force", "--out", "{dir}/c.json"}, []string{"--show", "--force"}},
		{"calibrate too few samples", []string{"calibrate", "--samples", "2", "--out", "{dir}/c.json"}, []string{"--samples 2", "at least 5"}},
		{"calibrate extra argument", []string{"calibrate", "extra-arg", "--out", "{dir}/c.json"}, []string{"brewput calibrate", `"extra-arg"`}},
		{"root predict not a bool", []string{"--predict=maybe"}, []string{"--predict", `"maybe"`, "want true or false"}},
		// brewput bench refuses these before building anything.
		{"bench bad regexp", []string{"bench", "-bench", "(", "--out", "{dir}/r"}, []string{"-bench", `"("`, "not a regular expression"}},
		{"bench bad run regexp", []string{"bench", "-run=(", "--out", "{dir}/r"}, []string{"-run", `"("`, "not a regular expression"}},
		{"bench zero count", []string{"bench", "-count", "0", "--out", "{dir}/r"}, []string{"-count 0", "1 or more"}},
		{"bench count not a number", []string{"bench", "-count", "x", "--out", "{dir}/r"}, []string{`"x"`, "--count", "whole number"}},
		{"bench too many cpus", []string{"bench", "-cpu", "999", "--out", "{dir}/r"}, []string{"-cpu", cpuCount}},
		{"bench too many cpus, brewput's spelling", []string{"bench", "--cpus", "999", "--out", "{dir}/r"}, []string{"-cpu", cpuCount}},
		{"bench bad benchtime", []string{"bench", "-benchtime", "fast", "--out", "{dir}/r"}, []string{"-benchtime", `"fast"`, "1000x"}},
		{"bench zero benchtime", []string{"bench", "--benchtime", "0x", "--out", "{dir}/r"}, []string{"-benchtime", `"0x"`}},
		{"bench unknown flag", []string{"bench", "-benchy", "--out", "{dir}/r"}, []string{"benchy"}},
		{"bench own go test flag", []string{"bench", ".", "--", "-count", "3"}, []string{"-count", "give it before --"}},
		{"compare nothing in common", []string{"compare", "{good}", "../../../../results/testdata/gotest-bench.txt"}, []string{"nothing to compare", "good.json has 1 (such as noop cpus=1 par=1)", "gotest-bench.txt has 3"}},
		{"bench package after --", []string{"bench", "--", "./pkg"}, []string{`"./pkg" is not a go test flag`}},
		{"bench unknown format", []string{"bench", "--format", "xml", "--out", "{dir}/r"}, []string{"--format", `"xml"`}},
		{"bench out is a file", []string{"bench", "--out", "{good}"}, []string{"--out", "is a file"}},
		{"bench no such package", []string{"bench", "./no-such-package", "--out", "{dir}/r"}, []string{"no-such-package"}},
		// Issue 13: every number finite, every parse error with the form
		// the flag accepts, absurd values refused with their range.
		{"NaN rate", []string{"run", "--rate", "NaN", "--out", "{dir}/r.json"}, []string{"--rate NaN", "want a finite number"}},
		{"Inf rate", []string{"run", "--rate", "Inf"}, []string{"--rate +Inf", "finite"}},
		{"model NaN rate names the rate", []string{"model", "--sched", "fifo", "--rate", "NaN"}, []string{"--rate NaN", "finite"}},
		{"advise NaN rate names the rate", []string{"advise", "--mode", "locking", "--sched", "fifo", "--rate", "NaN"}, []string{"--rate NaN", "finite"}},
		{"why NaN rate", []string{"why", "--mode", "locking", "--rate", "NaN"}, []string{"--rate NaN", "finite"}},
		{"compare NaN alpha", []string{"compare", "--alpha", "NaN", "{good}", "{good}"}, []string{"--alpha NaN", "finite"}},
		{"par not a whole number", []string{"run", "--par", "1e9"}, []string{`"--par"`, `"1e9"`, "want a whole number"}},
		{"negative seed", []string{"model", "--seed", "-1"}, []string{`"--seed"`, "want a whole number from 0"}},
		{"samples not a number", []string{"calibrate", "--samples", "abc"}, []string{`"--samples"`, "want a whole number"}},
		{"batch list with a hole", []string{"lab", "channels", "--batch", "1,,2"}, []string{`"--batch"`, "whole numbers separated by commas"}},
		{"rate past a microsecond", []string{"run", "--rate", "1e308"}, []string{"--rate 1e+308", "1000000 orders per second"}},
		{"rate below one a window", []string{"run", "--rate", "1e-300"}, []string{"--rate 1e-300", "at least one arrival in the --dur window"}},
		{"model rate below one a window", []string{"model", "--sched", "fifo", "--rate", "1e-300"}, []string{"--rate 1e-300", "--dur window"}},
		{"interval under a microsecond", []string{"run", "--interval", "1ns"}, []string{"--interval 1ns", "want 1µs to the --dur window"}},
		{"interval past the window", []string{"model", "--sched", "fifo", "--interval", "2s", "--dur", "1s"}, []string{"--interval 2s", "1µs to the --dur window"}},
		{"step past the window", []string{"run", "--grind", "1h"}, []string{"--grind 1h0m0s", "at most the --dur window"}},
		{"jitter past the window", []string{"run", "--jitter", "2s", "--dur", "1s"}, []string{"--jitter 2s", "--dur"}},
		{"too many customers to measure", []string{"run", "--par", "100000"}, []string{"--par 100000", "0 to 10000 customers", "brewput model"}},
		{"too long a queue", []string{"run", "--rate", "100", "--maxq", "10000000"}, []string{"--maxq 10000000", "0 to 1000000"}},
		{"too many rounds", []string{"run", "--count", "1000000"}, []string{"--count 1000000", "1 to 1000"}},
		{"unknown noisy", []string{"run", "--noisy", "maybe"}, []string{"--noisy", `"maybe"`, "retry", "ok"}},
		{"model noisy", []string{"model", "--sched", "fifo", "--noisy", "ok"}, []string{"--noisy", "measurements only"}},
		{"model too many customers", []string{"model", "--sched", "fifo", "--modes", "ideal", "--cpus", "1", "--par", "1000000000"}, []string{"would need about", "TB of memory", "1000000000", "--max-mem"}},
		{"model too many rounds", []string{"model", "--sched", "fifo", "--modes", "ideal", "--cpus", "1", "--count", "1000000000"}, []string{"1000000000 points", "--max-mem"}},
		{"model too many copies", []string{"model", "--sched", "fifo", "--modes", "multi-1000000000", "--cpus", "1"}, []string{"3000000003 mutexes and meters", "--max-mem"}},
		{"model too many events", []string{"model", "--sched", "fifo", "--modes", "ideal", "--cpus", "1", "--interval", "1us", "--dur", "1h", "--max-mem", "1TB"}, []string{"events", "shorten --dur"}},
		{"model YAML with a billion workers", []string{"model", "--sched", "fifo", "--model", "{workers}"}, []string{"--model", "workers.yaml", "1000000001 pipeline workers", "--max-mem"}},
		{"model YAML with a million lines", []string{"model", "--sched", "fifo", "--model", "{lines}"}, []string{"--model", "lines.yaml", "pipeline workers", "--max-mem"}},
		{"model YAML with a billion locks", []string{"model", "--sched", "fifo", "--model", "{locks}", "--causal=false"}, []string{"--model", "locks.yaml", "1000000001 mutexes and meters", "--max-mem"}},
		{"model YAML with a huge buffer", []string{"model", "--sched", "fifo", "--model", "{buffer}"}, []string{"--model", "buffer.yaml", "channels with room for 1000000000000", "--max-mem"}},
		{"model YAML too long to profile", []string{"model", "--sched", "fifo", "--model", "{steps}"}, []string{"--model", "steps.yaml", "simulations would process about", "events"}},
		{"model YAML holding too many resources to profile", []string{"model", "--sched", "fifo", "--model", "{holds}"}, []string{"--model", "holds.yaml", "simulations would process about", "events"}},
		{"advise too many customers", []string{"advise", "--mode", "locking", "--cpus", "1", "--sched", "fifo", "--par", "1000000000"}, []string{"would need about", "--max-mem"}},
		{"max-mem not a size", []string{"model", "--max-mem", "lots"}, []string{`"--max-mem"`, "want a size such as 4GB"}},
		{"out contradicts format", []string{"run", "--out", "{dir}/r.csv", "--format", "json"}, []string{"--out", "r.csv", "extension says csv, but the format is json"}},
		{"table to a json file", []string{"run", "--out", "{dir}/t.json", "--format", "table"}, []string{"--out", "t.json", "the format is table", "t.txt"}},
		{"model out contradicts format", []string{"model", "--sched", "fifo", "--out", "{dir}/m.bench", "--format", "csv"}, []string{"--out", "extension says bench"}},
		{"lab out contradicts format", []string{"lab", "workloads", "--out", "{dir}/w.json", "--format", "csv"}, []string{"--out", "extension says json"}},
		{"remote requests without remote", []string{"lab", "actors", "--remote-requests", "5"}, []string{"--remote-requests", "add --remote"}},
		{"downtime without restart", []string{"lab", "stream", "--downtime", "5ms"}, []string{"--downtime", "add --restart"}},
		{"channels past the memory", []string{"lab", "channels", "--lines", "100000000", "--line-bytes", "1048576", "--size", "1000"}, []string{"lab channels would hold about", "TB", "--max-mem"}},
		{"root empty out", []string{"--modes", "noop", "--out", ""}, []string{"--out", "want a folder for the report"}},
		{"report empty out", []string{"report", "{good}", "--out", ""}, []string{"--out", "want a folder"}},
		{"calibrate empty out", []string{"calibrate", "--out", ""}, []string{"--out \"\"", "want a file for the calibration"}},
		{"calibrate out a folder", []string{"calibrate", "--out", "{dir}"}, []string{"--out", "is a folder"}},
		{"calibrate out under a file", []string{"calibrate", "--out", "{good}/cal.json"}, []string{"--out", "good.json is a file"}},
		{"calibrate out in proc", []string{"calibrate", "--out", "/proc/cal.json"}, []string{"--out /proc/cal.json", "cannot write in /proc"}},
		{"calibrate too many samples", []string{"calibrate", "--samples", "1000000"}, []string{"--samples 1000000", "at most 100000"}},
		{"resume a finished file", []string{"run", "--resume", "{good}"}, []string{"--resume", "nothing to resume"}},
		{"resume with study flags", []string{"run", "--resume", "{good}", "--modes", "noop"}, []string{"--resume", "drop --modes"}},
		{"root resume a finished file", []string{"--resume", "{good}"}, []string{"--resume", "nothing to resume"}},
		{"resume another command's journal", []string{"run", "--resume", "{journal}"}, []string{"--resume", "a journal of brewput model"}},
	}
	files := badInputFiles(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			expectUsage(t, files, c.args, c.want)
		})
	}
}

// expectUsage runs brewput with args, in which {dir} is an empty output
// folder and {NAME} the path of files[NAME], and checks that it refused
// them as bad input: exit status 2, nothing on stdout, one line on stderr
// starting "brewput: " that contains every one of want, and nothing left in
// the output folder.
func expectUsage(t *testing.T, files map[string]string, rawArgs, want []string) {
	t.Helper()
	dir := t.TempDir()
	args := make([]string, len(rawArgs))
	for i, a := range rawArgs {
		args[i] = strings.ReplaceAll(a, "{dir}", dir)
		for name, path := range files {
			args[i] = strings.ReplaceAll(args[i], "{"+name+"}", path)
		}
	}
	code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
	if code != exitUsage {
		t.Errorf("brewput %q: exit %d, want %d (usage); stderr:\n%s", args, code, exitUsage, stderr)
	}
	if stdout != "" {
		t.Errorf("brewput %q wrote to stdout:\n%s", args, stdout)
	}
	if !strings.HasPrefix(stderr, "brewput: ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("brewput %q: stderr is not one line starting %q:\n%s", args, "brewput: ", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("brewput %q: stderr %q does not contain %q", args, stderr, w)
		}
	}
	for _, name := range testkit.DirNames(t, dir) {
		t.Errorf("brewput %q left %s in the output directory", args, filepath.Join(dir, name))
	}
}

// badInputFiles writes the input files the bad-input cases read, outside
// their output directories: {good} a valid results file, {garbage} text,
// {bench} a benchmark-format file, {empty} nothing, {yaml} a model file
// that is not YAML, {calibration} a valid calibration.
func badInputFiles(t *testing.T) map[string]string {
	dir := t.TempDir()
	var good strings.Builder
	p := results.Point{Source: "h", Spec: results.Spec{Mode: "noop", CPUs: 1, Load: results.Load{Par: 1, Dur: time.Second}}, Ops: 10, Throughput: 10, Unit: "ops/s", Shop: &results.Shop{}}
	if err := results.WriteJSON(&good, []results.Point{p}); err != nil {
		t.Fatal(err)
	}
	var journal strings.Builder
	if err := results.WriteJournal(&journal, results.Plan{Command: "model", Points: 2}, []results.Point{p}); err != nil {
		t.Fatal(err)
	}
	contents := map[string][2]string{
		"journal":  {"journal.json", journal.String()},
		"workers":  {"workers.yaml", "steps:\n  - pipeline:\n      - {name: grind, duration: 1ms, workers: 1000000000}\n      - {name: press, duration: 1ms}\n"},
		"lines":    {"lines.yaml", "steps:\n  - pipeline:\n      - {name: grind, duration: 1ms}\n      - {name: press, duration: 1ms}\n    lines: 1000000\n"},
		"locks":    {"locks.yaml", "resources: {shard: {locks: 1000000000}}\nsteps:\n  - {name: work, duration: 1ms, holds: [shard]}\n"},
		"buffer":   {"buffer.yaml", "steps:\n  - pipeline:\n      - {name: a, duration: 1ms}\n      - {name: b, duration: 1ms, buffer: 1000000000000}\n"},
		"steps":    {"steps.yaml", "steps:\n" + manySteps(3000)},
		"holds":    {"holds.yaml", manyHolds(3000)},
		"good":     {"good.json", good.String()},
		"negative": {"negative.json", strings.Replace(good.String(), `"throughput":10,`, `"throughput":-10,`, 1)},
		"hugecpus": {"hugecpus.json", strings.Replace(good.String(), `"cpus":1,`, `"cpus":4611686018427387904,`, 1)},
		"nan":      {"nan.bench", "goos: linux\nBenchmarkX 1000 NaN ns/op\n"},
		"longline": {"long.bench", "goos: linux\nBenchmarkX 1000 100 ns/op\nBenchmarkY 1000 100 ns/op " + strings.Repeat("x", 1<<17) + "\n"},
		"slow":     {"slow.yaml", "steps:\n  - {name: a, duration: 10s}\n"},
		"garbage":  {"garbage.txt", "hello\n"},
		"bench":    {"old.bench", "goos: linux\nBenchmarkCoffee/mode=noop/par=1 10 fast ns/op\n"},
		"empty":    {"empty.json", ""},
		"yaml":     {"bad.yaml", "name: [cafe\nsteps:\n"},
	}
	files := map[string]string{}
	for key, f := range contents {
		path := filepath.Join(dir, f[0])
		if err := os.WriteFile(path, []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		files[key] = path
	}
	cal := calibrate.Calibration{Samples: 5, Costs: sim.Costs{Switch: 200, Wake: 20000, MutexHandoff: 1000, ChanHandoff: 1000, BufChanHandoff: 1000}}
	files["calibration"] = filepath.Join(dir, "calibration.json")
	if err := calibrate.Save(files["calibration"], cal); err != nil {
		t.Fatal(err)
	}
	return files
}

// manyHolds is a YAML system of n resources that one step holds at once.
func manyHolds(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("r%d", i)
	}
	return "resources: {" + strings.Join(names, ": 1, ") + ": 1}\nsteps:\n  - {name: all, duration: 1ms, holds: [" + strings.Join(names, ", ") + "]}\n"
}

// manySteps is a YAML system's steps: n steps of 1 µs.
func manySteps(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  - {name: s%d, duration: 1us}\n", i)
	}
	return b.String()
}
