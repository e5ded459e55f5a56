// Command table runs brewput why on every design of package truth, as a
// benchmark (brewput why ./truth -bench …) and as a study (brewput study
// ./truth/study why …), on 2 CPUs, and prints each answer beside the
// verdict the design must get: right, undecided or wrong. What it prints
// depends on the machine: it is a finding to record (validation/README.md),
// not a test. Run it from the validation module's root:
//
//	go run ./truth/table
//	go run ./truth/table --designs onelock-short,shards64 --forms bench
//
// It builds brewput from the repository's cmd/brewput unless --brewput
// names a binary.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/validation/truth"
)

func main() {
	brewput := flag.String("brewput", "", "the brewput binary to run (default: built from the repository's cmd/brewput)")
	designs := flag.String("designs", "", "comma-separated designs to run (default all)")
	forms := flag.String("forms", "bench,study", "bench, study, or both")
	within := flag.Duration("within", 100*time.Second, "each why's --within")
	maxCount := flag.Int("max-count", 12, "each why's --max-count")
	noisy := flag.String("noisy", "", "each why's --noisy, if set (ok: keep disturbed runs)")
	stretch := flag.String("stretch", "", "each why's --stretch, if set (default why's own, 0.5)")
	flag.Parse()
	if err := run(*brewput, *designs, *forms, *within, *maxCount, *noisy, *stretch); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(2)
	}
}

// row is one why's answer beside its truth.
type row struct {
	design, form string
	want         truth.Verdict
	part         string
	got          Answer
	took         time.Duration
	err          error
}

func run(brewput, designs, forms string, within time.Duration, maxCount int, noisy, stretch string) error {
	var picked []truth.Design
	for _, d := range truth.Designs() {
		if designs == "" || slices.Contains(strings.Split(designs, ","), d.Name) {
			picked = append(picked, d)
		}
	}
	if len(picked) == 0 {
		return fmt.Errorf("--designs %q: no design; want some of %s", designs, names())
	}
	formList := strings.Split(forms, ",")
	for _, f := range formList {
		if f != "bench" && f != "study" {
			return fmt.Errorf("--forms %q: want bench, study, or bench,study", forms)
		}
	}
	if brewput == "" {
		dir, err := os.MkdirTemp("", "truth-table")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		brewput = filepath.Join(dir, "brewput")
		// Built in the main module, whose go.sum holds the command's
		// dependencies (this module's does not).
		build := exec.Command("go", "build", "-o", brewput, "./cmd/brewput")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/brewput in .. (run this from the validation module's root): %v\n%s", err, out)
		}
	}
	common := []string{"--cpus", "2", "--format", "json", "--within", within.String(), "--max-count", fmt.Sprint(maxCount)}
	if noisy != "" {
		common = append(common, "--noisy", noisy)
	}
	if stretch != "" {
		common = append(common, "--stretch", stretch)
	}
	var rows []row
	for _, d := range picked {
		for _, form := range formList {
			r := row{design: d.Name, form: form, want: d.Bench, part: d.BenchPart}
			args := append([]string{"why", "./truth", "-bench", "^BenchmarkTruth/design=" + d.Name + "$"}, common...)
			if form == "study" {
				r.want, r.part = d.Study, d.StudyPart
				args = append([]string{"study", "./truth/study", "why", "--variant", d.Name}, common...)
			}
			fmt.Fprintf(os.Stderr, "%s %s: brewput %s\n", d.Name, form, strings.Join(args, " "))
			start := time.Now()
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(brewput, args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			r.took = time.Since(start)
			if err != nil {
				r.err = fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
			} else {
				r.got, r.err = Read(stdout.Bytes())
			}
			fmt.Fprintf(os.Stderr, "  %s in %.0f s: %s\n", r.got.Verdict, r.took.Seconds(), r.got.Answer)
			rows = append(rows, r)
		}
	}
	return write(rows)
}

// write prints the rows and a tally.
func write(rows []row) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "design\tform\ttruth\tanswer\tjudged\trounds\ttook")
	tally := map[string]int{}
	for _, r := range rows {
		judged, answer := "error", "error: "+fmt.Sprint(r.err)
		if r.err == nil {
			judged, answer = Judge(r.want, r.part, r.got), string(r.got.Verdict)
			if r.got.Limit != "" {
				answer += ": " + r.got.Limit
			}
		}
		tally[judged]++
		truth := string(r.want)
		if r.part != "" {
			truth += " (" + r.part + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%.0f s\n", r.design, r.form, truth, answer, judged, r.got.Rounds, r.took.Seconds())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Printf("\n%d right, %d undecided, %d wrong, %d errors, of %d\n", tally["right"], tally["undecided"], tally["wrong"], tally["error"], len(rows))
	return nil
}

func names() string {
	var out []string
	for _, d := range truth.Designs() {
		out = append(out, d.Name)
	}
	return strings.Join(out, ", ")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Answer is what one why answered, read from its output.
type Answer struct {
	Verdict truth.Verdict // Limits, DoesNot, NoLock, or "undecided"
	Limit   string        // the part named, where Limits
	Answer  string        // its answer in words
	Rounds  int
}

// Undecided is an answer that decided nothing, or not everything.
const Undecided truth.Verdict = "undecided"

// Read reads why's output with --format json: its JSON object, or the line
// it writes where nothing was there to stretch (undecided where that was
// a channel's lock).
func Read(out []byte) (Answer, error) {
	text := strings.TrimSpace(string(out))
	if !strings.HasPrefix(text, "{") {
		text = strings.Join(strings.Fields(text), " ") // one line, however it was wrapped
		switch {
		case strings.Contains(text, "while its timer ran") && (strings.Contains(text, ": none limits it") || strings.Contains(text, "no lock watched limits it")) ||
			strings.HasSuffix(text, "no metered part limits it."):
			return Answer{Verdict: truth.NoLock, Answer: text}, nil
		case strings.Contains(text, "no stretch lengthens a channel's lock, so why cannot tell whether one limits it"):
			return Answer{Verdict: Undecided, Answer: text}, nil
		}
		return Answer{}, fmt.Errorf("not why's JSON nor its line of no lock: %q", lastLine(text))
	}
	var js struct {
		Limit       string `json:"limit"`
		Answer      string `json:"answer"`
		Rounds      int    `json:"rounds"`
		Experiments []struct {
			Decided bool `json:"decided"`
		} `json:"experiments"`
	}
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&js); err != nil {
		return Answer{}, err
	}
	a := Answer{Limit: js.Limit, Answer: js.Answer, Rounds: js.Rounds, Verdict: truth.DoesNot}
	switch {
	case js.Limit != "":
		a.Verdict = truth.Limits
	case slices.ContainsFunc(js.Experiments, func(e struct {
		Decided bool `json:"decided"`
	}) bool {
		return !e.Decided
	}):
		a.Verdict = Undecided
	}
	return a, nil
}

// Judge says whether got is the verdict want, naming part where it is
// Limits: "right", "undecided" or "wrong".
func Judge(want truth.Verdict, part string, got Answer) string {
	switch {
	case got.Verdict == Undecided:
		return "undecided"
	case got.Verdict != want:
		return "wrong"
	case want == truth.Limits && !strings.Contains(got.Limit, part):
		return "wrong"
	}
	return "right"
}
