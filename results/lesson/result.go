package lesson

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brewput/brewput/internal/base/jsonout"
	"github.com/brewput/brewput/results"
)

// Result is a claim's verdict with all it rests on, a line of a lessons file.
type Result struct {
	// The claim, as Claim says it.
	Claim      string `json:"claim"`
	Seed       string `json:"seed"`
	Text       string `json:"text"`
	SeedFigure string `json:"seed_figure"`
	Correction string `json:"correction,omitempty"`
	Measures   string `json:"measures"`
	Unit       string `json:"unit"`
	Rule       Rule   `json:"rule"`
	// CPUs are the CPU counts the figure was measured on.
	CPUs  []int  `json:"cpus"`
	Model bool   `json:"model,omitempty"`
	Sched string `json:"sched,omitempty"`

	// Figure is of the quiet samples.
	Figure  Figure  `json:"figure"`
	Verdict Verdict `json:"verdict"`
	// Reason says why, in words, where read from a file; Why says it as
	// facts where measured (report/text's LessonReason words either).
	Reason string `json:"reason"`
	Why    Why    `json:"-"`
	// MoreRuns is Rule.MoreRuns, for an inconclusive verdict.
	MoreRuns int `json:"more_runs,omitempty"`

	// Disturbed says too few samples were taken on a quiet machine.
	Disturbed bool `json:"disturbed,omitempty"`
	// Others is the mean CPUs other processes took during the samples
	// kept, OthersAll during all; Discarded counts those during which they
	// took more than BusyLimit, what the claim's CPUs leave free and a bit.
	Others    float64 `json:"others_cpus"`
	OthersAll float64 `json:"others_cpus_all"`
	Discarded int     `json:"discarded"`
	BusyLimit float64 `json:"busy_limit_cpus,omitempty"`
	// Empty counts the samples that measured nothing.
	Empty int `json:"empty,omitempty"`

	// Error says what failed; the verdict is then inconclusive.
	Error string `json:"error,omitempty"`

	// Level is the run's, "quick", "full" or "tiny".
	Level    string       `json:"level"`
	Host     results.Host `json:"host"`
	Start    time.Time    `json:"start"`
	ElapsedS float64      `json:"elapsed_s"`
}

// RuleText is the rule in the claim's unit: "≥ ×1.70", "360 to 440 ms".
func (r Result) RuleText() string { return r.Rule.format(r.Unit) }

// WriteJSON writes r as one line of JSON.
func WriteJSON(w io.Writer, r Result) error {
	b, err := jsonout.Marshal(r) // "≥ ×1.70" and "<" as they are
	if err == nil {
		_, err = w.Write(append(b, '\n')) // one write a line: a reader never sees half of one
	}
	return err
}

// ReadJSON reads a lessons file's results; an error names the line.
func ReadJSON(r io.Reader) ([]Result, error) {
	var out []Result
	err := results.ScanLines(r, 16<<20, func(line int, text []byte) (bool, error) {
		var res Result
		if err := json.Unmarshal(text, &res); err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
		if res.Claim == "" {
			return false, fmt.Errorf("line %d: not a lessons result (no claim)", line)
		}
		out = append(out, res)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadFile reads a lessons file; one with no result is an error.
func ReadFile(path string) ([]Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rs, err := ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s: holds no lessons", path)
	}
	return rs, nil
}

// IsFile reports whether path is a lessons file: its first line has a "claim".
func IsFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	is := false
	err = results.ScanLines(f, 16<<20, func(_ int, line []byte) (bool, error) {
		var probe struct {
			Claim *string `json:"claim"`
		}
		is = line[0] == '{' && json.Unmarshal(line, &probe) == nil && probe.Claim != nil
		return true, nil // the first line tells
	})
	return is && err == nil, err
}

// Start is what a run of claims is about to measure: Claims claims at
// Level ("quick"), taking AtMost, each claim that waits for quiet up to
// QuietWait more, on Host with CPUs CPUs.
type Start struct {
	Claims            int
	Level, Host       string
	AtMost, QuietWait time.Duration
	CPUs              int
}

// Reached is a verdict as it is reached, the Done-th of Total, Elapsed into
// the run, whose limit leaves LimitLeft (more where Waits: claims may wait).
type Reached struct {
	Result             Result
	Done, Total        int
	Elapsed, LimitLeft time.Duration
	Waits              bool
}

// Why is what a verdict rests on, as facts; report/text's LessonReason words it.
type Why struct {
	Kind WhyKind
	// Need is the samples an interval needs or, for WhyCPUs, the CPUs
	// the claim needs, of which this machine has Have.
	Need, Have int
}

// WhyKind is the kind of reason for a verdict.
type WhyKind int

const (
	WhyNone        WhyKind = iota
	WhyModel               // the model's figure, exact
	WhyRace                // not measured under the race detector
	WhyCPUs                // not measured: more CPUs than the machine has
	WhyFailed              // failed to measure (Error)
	WhyDisturbed           // too few quiet samples for an interval
	WhyOutOfTime           // out of time before an interval
	WhyTooFew              // too few samples for an interval
	WhyInterval            // the whole interval on one side of the threshold
	WhyOnThreshold         // the interval straddles it, its median on it
	WhyStraddles           // the interval straddles it: MoreRuns would tell
)
