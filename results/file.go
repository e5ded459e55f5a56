package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
)

// File is what a results file holds: its points, a journal's plan, notes
// on what the reader passed over (errors that do not stop it), and the
// variants a prediction left out.
type File struct {
	Points       []Point
	Plan         *Plan
	Notes        []error
	NotPredicted []NotPredicted
	Rankings     []Ranking
}

// bom is the UTF-8 byte-order mark some editors put at a file's start.
const bom = "\xef\xbb\xbf"

// accepted names the formats Open reads, for its errors.
const accepted = "want JSON Lines from --format json (a report's results.json), or Go benchmark output from --format bench or go test -bench"

// Open reads a results file, JSON Lines or Go benchmark output (not
// brewput's CSV), told by its content. A number null or missing is an error
// naming its line; what this version does not know, a byte-order mark, a
// duplicate and a last line cut short are passed over with a note.
func Open(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // names the file already
	}
	f, err := read(data, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, n := range f.Notes {
		f.Notes[i] = fmt.Errorf("%s: %w", path, n)
	}
	if len(f.Points) == 0 {
		if f.Plan != nil {
			return nil, fmt.Errorf("%s: holds no points yet: the run that began it (brewput %s) was stopped before its first point", path, f.Plan.Command)
		}
		return nil, fmt.Errorf("%s: holds no points", path)
	}
	return f, nil
}

// OpenAll opens each file and merges them (see Merge).
func OpenAll(paths ...string) (*File, error) {
	var files []*File
	for _, path := range paths {
		f, err := Open(path)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return Merge(files...), nil
}

// ReadFile is Open's points.
func ReadFile(path string) ([]Point, error) { return ReadFiles(path) }

// ReadFiles is OpenAll's points.
func ReadFiles(paths ...string) ([]Point, error) {
	f, err := OpenAll(paths...)
	if err != nil {
		return nil, err
	}
	return f.Points, nil
}

// Read is Open of a file's content.
func Read(data []byte) (*File, error) { return read(data, "") }

// read is Read of the file at path, which names a Go benchmark file's points.
func read(data []byte, path string) (*File, error) {
	f := &File{}
	if rest, ok := bytes.CutPrefix(data, []byte(bom)); ok {
		data = rest
		f.Notes = append(f.Notes, errors.New("line 1: a byte-order mark, ignored"))
	}
	content := bytes.TrimLeft(data, " \t\r\n")
	first, _, _ := strings.Cut(string(content), "\n")
	first = strings.TrimRight(first, "\r")
	var err error
	switch {
	case len(content) == 0:
		return nil, fmt.Errorf("holds no points (the file is empty)")
	case content[0] == '{':
		err = f.readJSON(data)
	case strings.HasPrefix(first, "kind,source,"):
		return nil, fmt.Errorf("brewput's CSV, written for spreadsheets and not read back (%s)", accepted)
	case isBench(data):
		f.Points, err = ReadBench(bytes.NewReader(data), path)
	case slices.ContainsFunc([]string{"goos:", "goarch:", "pkg:", "cpu:", "source:", "Unit ", "Benchmark", "# Benchmark", "PASS", "FAIL", "ok ", "--- "},
		func(p string) bool { return strings.HasPrefix(first, p) }):
		return nil, fmt.Errorf("Go benchmark output without a single benchmark result (%s)", accepted)
	default:
		return nil, fmt.Errorf("not a brewput results file (%s)", accepted)
	}
	if err != nil {
		return nil, err
	}
	f.dedupe()
	return f, nil
}

// readJSON reads JSON Lines: records and points.
func (f *File) readJSON(data []byte) error {
	fields := jsonFields(reflect.TypeFor[pointJSON]())
	for _, c := range Columns() {
		fields[string(c.Key)] = reflect.TypeFor[float64]()
		if c.field != nil {
			fields[string(c.Key)] = reflect.TypeOf(c.field(&Point{})).Elem()
		}
	}
	unknown := map[string][]int{} // field → lines
	complete := len(data) > 0 && data[len(data)-1] == '\n'
	last := bytes.Count(data, []byte("\n"))
	if !complete {
		last++
	}
	err := ScanLines(bytes.NewReader(data), 64<<20, func(n int, line []byte) (bool, error) {
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			// A kill can cut a journal's last write short.
			var syn *json.SyntaxError
			if n == last && !complete && (errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF)) {
				f.Notes = append(f.Notes, fmt.Errorf("line %d: incomplete (a write cut short, as by a kill), left out", n))
				return true, nil
			}
			return false, fmt.Errorf("line %d: not a brewput point: %w", n, err)
		}
		if kind, ok := obj[recordKey]; ok {
			return false, f.record(n, kind, line)
		}
		if kind, ok := obj["kind"].(string); ok {
			if _, known := ParseKind(kind); !known {
				f.Notes = append(f.Notes, fmt.Errorf("line %d: a point of kind %q, unknown to this version of brewput (a newer one wrote it?), left out", n, kind))
				return false, nil
			}
		}
		if err := checkObject(obj, fields, "", n, unknown); err != nil {
			return false, err
		}
		var p Point
		if err := json.Unmarshal(line, &p); err != nil {
			return false, fmt.Errorf("line %d: not a brewput point: %w", n, err)
		}
		// An older file gets this brewput's reasons for numbers past a bound.
		p.AssessAbove()
		if p.Mode == "" || p.CPUs < 1 {
			return false, fmt.Errorf("line %d: not a brewput point: missing mode or cpus", n)
		}
		if err := p.CheckRead(); err != nil {
			return false, fmt.Errorf("line %d: %w", n, err)
		}
		f.Points = append(f.Points, p)
		return false, nil
	})
	for _, name := range slices.Sorted(maps.Keys(unknown)) {
		f.Notes = append(f.Notes, fmt.Errorf("%s: field %q is not known to this version of brewput (a newer one wrote it?), ignored", lineList(unknown[name]), name))
	}
	return err
}

// record reads a line that is not a point.
func (f *File) record(n int, kind any, line []byte) error {
	switch kind {
	case resultsRecord:
		var s schemaLine
		if err := json.Unmarshal(line, &s); err != nil || s.Schema < 1 {
			return fmt.Errorf("line %d: not a brewput results file's schema line (%s)", n, line)
		}
		if s.Schema > Schema {
			f.Notes = append(f.Notes, fmt.Errorf("line %d: results of schema %d, newer than this version's %d: read as far as it can", n, s.Schema, Schema))
		}
		return nil
	case notPredictedRecord:
		return f.readNotPredicted(n, line)
	case rankingRecord:
		return f.readRanking(n, line)
	case planRecord:
	default:
		f.Notes = append(f.Notes, fmt.Errorf("line %d: a record of kind %v, unknown to this version of brewput, ignored", n, kind))
		return nil
	}
	if f.Plan != nil {
		return fmt.Errorf("line %d: a second plan; a journal has one, on its first line", n)
	}
	var h schemaLine
	if err := json.Unmarshal(line, &h); err != nil {
		return fmt.Errorf("line %d: not a brewput journal's plan: %w", n, err)
	}
	f.Plan = &h.Plan
	return nil
}

// lineList writes line numbers for a note: "line 3", "lines 3, 4 and 7",
// "lines 3, 4, … (12 lines)".
func lineList(ns []int) string {
	switch {
	case len(ns) == 1:
		return fmt.Sprintf("line %d", ns[0])
	case len(ns) > 5:
		return fmt.Sprintf("lines %d, %d, … (%d lines)", ns[0], ns[1], len(ns))
	}
	return "lines " + format.JoinAnd(collect.Mapped(ns, strconv.Itoa))
}

// checkObject checks a point's JSON object (or a nested one, at path)
// against its type's fields: a number null or required and missing is an
// error; a field the type lacks is recorded in unknown.
func checkObject(obj map[string]any, fields map[string]reflect.Type, path string, n int, unknown map[string][]int) error {
	if path == "" {
		if obj["mode"] == nil || obj["cpus"] == nil {
			return fmt.Errorf("line %d: not a brewput point: missing mode or cpus", n)
		}
		// The numbers every point has had since the first results file.
		for _, name := range []string{"cpus", "par", "dur_s", "ops", "throughput", "util", "latency_ms"} {
			if _, ok := obj[name]; !ok {
				return fmt.Errorf("line %d: not a brewput point: no %q; want a number", n, name)
			}
		}
	}
	isNumber := func(t reflect.Type) bool {
		k := t.Kind()
		return k >= reflect.Int && k <= reflect.Float64 && k != reflect.Uintptr
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		v, t, at := obj[name], fields[name], join(path, name)
		if t == nil && retired(at) {
			continue
		}
		if t == nil {
			if ns := unknown[at]; len(ns) == 0 || ns[len(ns)-1] != n {
				unknown[at] = append(unknown[at], n)
			}
			continue
		}
		optional := t.Kind() == reflect.Pointer
		if optional {
			t = t.Elem()
		}
		sub, _ := v.(map[string]any)
		switch {
		case isNumber(t) && v == nil:
			return fmt.Errorf("line %d: %s is null; want a number", n, at)
		case t == reflect.TypeFor[Latency]() && v == nil && !optional:
			return fmt.Errorf("line %d: %s is null; want the latencies, an object of numbers", n, at)
		case t.Kind() == reflect.Map && isNumber(t.Elem()):
			for _, k := range slices.Sorted(maps.Keys(sub)) {
				if sub[k] == nil {
					return fmt.Errorf("line %d: %s is null; want a number", n, join(at, k))
				}
			}
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			list, _ := v.([]any)
			for _, e := range list {
				if sub, ok := e.(map[string]any); ok {
					if err := checkObject(sub, jsonFields(t.Elem()), at+"[]", n, unknown); err != nil {
						return err
					}
				}
			}
		case t.Kind() == reflect.Struct && t != reflect.TypeFor[time.Time]() && sub != nil:
			for _, k := range latencyKeys() {
				if _, ok := sub[k]; !ok && t == reflect.TypeFor[Latency]() {
					return fmt.Errorf("line %d: %s has no %q; want a number", n, at, k)
				}
			}
			if err := checkObject(sub, jsonFields(t), at, n, unknown); err != nil {
				return err
			}
		}
	}
	return nil
}

// retired reports whether the field at path is one older versions
// wrote, the words report/text now composes from the facts beside it,
// read over without a note.
func retired(path string) bool {
	switch path {
	case "trust.above[].text", "trust.caveats[].text":
		return true
	}
	return false
}

// jsonFields maps the JSON names of a struct type's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			out[jsonName(f)] = f.Type
		}
	}
	return out
}

// dedupe keeps the first of points exactly the same, with a note.
func (f *File) dedupe() {
	// Keyed by a hash: a large file's every point's JSON would take more
	// memory than the points.
	seen := make(map[[sha256.Size]byte]bool, len(f.Points))
	kept := f.Points[:0]
	var dups []int
	for i, p := range f.Points {
		data, err := json.Marshal(p)
		key := sha256.Sum256(data)
		if err == nil && seen[key] {
			dups = append(dups, i+1)
			continue
		}
		seen[key] = true
		kept = append(kept, p)
	}
	clear(f.Points[len(kept):])
	if len(dups) > 0 {
		f.Points = kept
		f.Notes = append(f.Notes, fmt.Errorf("%d point(s) repeat an earlier one exactly (point %s of the file), counted once", len(dups), strings.TrimPrefix(strings.TrimPrefix(lineList(dups), "lines "), "line ")))
	}
}

// Merge is the points and notes of several files, in order, exact
// duplicates across them counted once.
func Merge(files ...*File) *File {
	all := &File{}
	for _, f := range files {
		all.Points = append(all.Points, f.Points...)
		all.Notes = append(all.Notes, f.Notes...)
		all.NotPredicted = append(all.NotPredicted, f.NotPredicted...)
		all.Rankings = append(all.Rankings, f.Rankings...)
	}
	n := len(all.Notes)
	all.dedupe()
	if len(all.Notes) > n {
		all.Notes[n] = fmt.Errorf("across the files: %w", all.Notes[n])
	}
	return all
}

// NotPredicted is a measured variant a prediction leaves out, and why:
// Why names the reason and the figures beside it say it; Reason is the
// same in words, as report/text says it (report/text.NotPredicted).
type NotPredicted struct {
	Mode   string   `json:"mode"`
	Reason string   `json:"reason"`
	Why    Declined `json:"why,omitempty"`
	// CPUs is the count the reason is about: where Disturbed of Runs
	// were disturbed, where the variant Made that many times one CPU's
	// work that work sharing nothing makes Alone, or the first count
	// past the target's curves, measured on up to Measured CPUs and
	// carried to Reach: the variant is predicted on the counts below it.
	CPUs      int     `json:"cpus,omitempty"`
	Disturbed int     `json:"disturbed,omitempty"`
	Runs      int     `json:"runs,omitempty"`
	Made      float64 `json:"made,omitempty"`
	Alone     float64 `json:"alone,omitempty"`
	Measured  int     `json:"measured_cpus,omitempty"`
	Reach     int     `json:"reach_cpus,omitempty"`
}

// Declined names why a variant is not predicted.
type Declined string

// The reasons a variant is not predicted.
const (
	DeclinedDisturbed   Declined = "disturbed"        // too many of its runs on a count were disturbed
	DeclinedNoOneCPU    Declined = "no-one-cpu"       // measured on no single CPU, which its speed-ups stand on
	DeclinedOneCPUOnly  Declined = "one-cpu-only"     // measured on 1 CPU only, which does not tell its kind
	DeclinedUnexplained Declined = "unexplained-loss" // a loss no lock or allocation seen explains
	DeclinedPastCurves  Declined = "past-curves"      // a count past what the target's curves reach
)

// AppendNotPredicted writes each as a line after a stream's points.
func AppendNotPredicted(w io.Writer, nps []NotPredicted) error {
	enc := json.NewEncoder(w)
	for _, np := range nps {
		if err := enc.Encode(struct {
			Record string `json:"brewput"`
			NotPredicted
		}{notPredictedRecord, np}); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) readNotPredicted(n int, line []byte) error {
	var np NotPredicted
	if err := json.Unmarshal(line, &np); err != nil || np.Mode == "" {
		return fmt.Errorf("line %d: not a brewput not_predicted record (want a mode and a reason): %s", n, line)
	}
	f.NotPredicted = append(f.NotPredicted, np)
	return nil
}
