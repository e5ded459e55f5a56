package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
)

// File is what a results file holds: its points, the plan of the run that
// wrote it where it is a journal that run left (see Journal), and notes on
// what the reader accepted or left out — a byte-order mark, fields this
// version does not know, exact duplicates, a last line cut short by a
// kill — each naming the line, for the user to see.
type File struct {
	Points []Point
	Plan   *Plan
	Notes  []string
}

// bom is the UTF-8 byte-order mark some editors put at a file's start.
var bom = []byte("\xef\xbb\xbf")

// Open reads a results file, JSON Lines, CSV or the Go benchmark format,
// telling which from its content rather than its name: JSON Lines start
// with '{', CSV with brewput's CSV header, and Go benchmark output
// (--format bench, or any go test -bench output; see ReadBench) has a
// benchmark result line. Anything else, such as table
// output, is an error that says what the file seems to be and what is
// accepted. Errors and notes name the file, and the line where there is
// one; a file with no points is an error, as nothing can be made of it.
//
// The reader is strict about values and lenient about the future: a
// number that is null or missing is an error naming its line, while a
// field this version does not know (a newer brewput's) and a byte-order
// mark are accepted with a note. A point that repeats an earlier one
// exactly is counted once, with a note.
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
		f.Notes[i] = path + ": " + n
	}
	if len(f.Points) == 0 {
		if f.Plan != nil {
			return nil, fmt.Errorf("%s: holds no points yet: the run that began it (brewput %s) was stopped before its first point", path, f.Plan.Command)
		}
		return nil, fmt.Errorf("%s: holds no points", path)
	}
	return f, nil
}

// Read is Open of a file's content.
func Read(data []byte) (*File, error) {
	return read(data, "")
}

// read is Read of the content of the file at path, which names a Go
// benchmark file's points (see ReadBench).
func read(data []byte, path string) (*File, error) {
	f := &File{}
	if rest, ok := bytes.CutPrefix(data, bom); ok {
		data = rest
		f.Notes = append(f.Notes, "line 1: a byte-order mark, ignored")
	}
	content := bytes.TrimLeft(data, " \t\r\n")
	var err error
	switch {
	case len(content) == 0:
		return nil, fmt.Errorf("holds no points (the file is empty)")
	case content[0] == '{':
		err = f.readJSON(data)
	case isCSVHeader(firstLine(content)):
		var notes []string
		f.Points, notes, err = readCSV(bytes.NewReader(data))
		f.Notes = append(f.Notes, notes...)
	case isBench(data):
		f.Points, err = ReadBench(bytes.NewReader(data), path)
	default:
		return nil, fmt.Errorf("%s (%s)", whatIs(firstLine(content)), accepted)
	}
	if err != nil {
		return nil, err
	}
	f.dedupe()
	return f, nil
}

// readJSON reads JSON Lines: the schema's line, points of schema 2 and
// of schema 1 (which have no kind), and a journal's plan.
func (f *File) readJSON(data []byte) error {
	fields := map[bool]map[string]reflect.Type{true: jsonFields(reflect.TypeFor[pointJSON]()), false: jsonFields(reflect.TypeFor[pointV1]())}
	unknown := map[string][]int{} // field → lines
	complete := len(data) > 0 && data[len(data)-1] == '\n'
	lines := bytes.Count(data, []byte("\n"))
	if !complete {
		lines++
	}
	err := ScanLines(bytes.NewReader(data), 64<<20, func(n int, line []byte) (bool, error) {
		var obj map[string]any
		if err := json.Unmarshal(line, &obj); err != nil {
			// A kill can cut a journal's last write short: without its
			// newline, a last line that does not parse is that.
			var syn *json.SyntaxError
			if n == lines && !complete && (errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF)) {
				f.Notes = append(f.Notes, fmt.Sprintf("line %d: incomplete (a write cut short, as by a kill), left out", n))
				return true, nil
			}
			return false, fmt.Errorf("line %d: not a brewput point: %w", n, err)
		}
		if kind, ok := obj[recordKey]; ok {
			return false, f.record(n, kind, line)
		}
		kind, typed := obj["kind"].(string)
		if _, known := ParseKind(kind); typed && !known {
			f.Notes = append(f.Notes, fmt.Sprintf("line %d: a point of kind %q, unknown to this version of brewput (a newer one wrote it?), left out", n, kind))
			return false, nil
		}
		if err := checkObject(obj, fields[typed], "", n, unknown); err != nil {
			return false, err
		}
		var p Point
		if err := json.Unmarshal(line, &p); err != nil {
			return false, fmt.Errorf("line %d: not a brewput point: %w", n, err)
		}
		if p.Mode == "" || p.CPUs < 1 {
			return false, fmt.Errorf("line %d: not a brewput point: missing mode or cpus", n)
		}
		f.Points = append(f.Points, p)
		return false, nil
	})
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(unknown)) {
		f.Notes = append(f.Notes, fmt.Sprintf("%s: field %q is not known to this version of brewput (a newer one wrote it?), ignored", lineList(unknown[name]), name))
	}
	return nil
}

// record reads a line that is not a point: the schema's line, or a
// journal's plan.
func (f *File) record(n int, kind any, line []byte) error {
	switch kind {
	case resultsRecord:
		var s schemaLine
		if err := json.Unmarshal(line, &s); err != nil || s.Schema < 1 {
			return fmt.Errorf("line %d: not a brewput results file's schema line (%s)", n, line)
		}
		if s.Schema > Schema {
			f.Notes = append(f.Notes, fmt.Sprintf("line %d: results of schema %d, newer than this version's %d: read as far as it can", n, s.Schema, Schema))
		}
		return nil
	case planRecord:
	default:
		f.Notes = append(f.Notes, fmt.Sprintf("line %d: a record of kind %v, unknown to this version of brewput, ignored", n, kind))
		return nil
	}
	if f.Plan != nil {
		return fmt.Errorf("line %d: a second plan; a journal has one, on its first line", n)
	}
	var h journalHeader
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
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return "lines " + format.JoinAnd(s)
}

// requiredFields are the numbers every point has had since the first
// results file: a line without one is not a point brewput wrote, and a
// reader that took it as 0 would report a measurement of nothing.
func requiredFields() []string {
	return []string{"cpus", "par", "dur_s", "ops", "throughput", "util", "latency_ms"}
}

// checkObject checks a point's JSON object (or a nested one, at path)
// against the fields of its type: a number, or an object of numbers,
// that is null, or a required one that is missing, is an error naming
// line n; a field the type does not have is recorded in unknown.
func checkObject(obj map[string]any, fields map[string]reflect.Type, path string, n int, unknown map[string][]int) error {
	if path == "" {
		if obj["mode"] == nil || obj["cpus"] == nil {
			return fmt.Errorf("line %d: not a brewput point: missing mode or cpus", n)
		}
		for _, name := range requiredFields() {
			if _, ok := obj[name]; !ok {
				return fmt.Errorf("line %d: not a brewput point: no %q; want a number", n, name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		v := obj[name]
		t, ok := fields[name]
		if !ok {
			key := join(path, name)
			if ns := unknown[key]; len(ns) == 0 || ns[len(ns)-1] != n {
				unknown[key] = append(unknown[key], n)
			}
			continue
		}
		switch {
		case isNumber(t):
			if v == nil {
				return fmt.Errorf("line %d: %s is null; want a number", n, join(path, name))
			}
		case t.Kind() == reflect.Map && isNumber(t.Elem()):
			sub, _ := v.(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(sub)) {
				if sub[k] == nil {
					return fmt.Errorf("line %d: %s is null; want a number", n, join(join(path, name), k))
				}
			}
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
			list, _ := v.([]any)
			for _, e := range list {
				if sub, ok := e.(map[string]any); ok {
					if err := checkObject(sub, jsonFields(t.Elem()), join(path, name)+"[]", n, unknown); err != nil {
						return err
					}
				}
			}
		case t.Kind() == reflect.Struct:
			if t == reflect.TypeFor[Latency]() && v == nil {
				return fmt.Errorf("line %d: %s is null; want the latencies, an object of numbers", n, join(path, name))
			}
			if sub, ok := v.(map[string]any); ok && t != reflect.TypeFor[struct{}]() {
				if err := checkLatency(sub, t, join(path, name), n); err != nil {
					return err
				}
				if err := checkObject(sub, jsonFields(t), join(path, name), n, unknown); err != nil {
					return err
				}
			}
		case t.Kind() == reflect.Pointer:
			if sub, ok := v.(map[string]any); ok && t.Elem().Kind() == reflect.Struct {
				if err := checkLatency(sub, t.Elem(), join(path, name), n); err != nil {
					return err
				}
				if err := checkObject(sub, jsonFields(t.Elem()), join(path, name), n, unknown); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// isNumber reports whether t is a kind of number.
func isNumber(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// checkLatency requires every key of a latency object (type t, at path).
func checkLatency(obj map[string]any, t reflect.Type, path string, n int) error {
	if t != reflect.TypeFor[Latency]() {
		return nil
	}
	for _, k := range latencyKeys() {
		if _, ok := obj[k]; !ok {
			return fmt.Errorf("line %d: %s has no %q; want a number", n, path, k)
		}
	}
	return nil
}

// jsonFields maps the JSON names of a struct type's fields, its embedded
// structs' flattened in, to their types. A time.Time and the like, which
// encode as strings, map to an empty struct, whose content is not checked.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range jsonFields(ft) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		if ft.Kind() == reflect.Struct && !hasJSONFields(ft) {
			ft = reflect.TypeFor[struct{}]()
		}
		out[name] = ft
	}
	return out
}

// hasJSONFields reports whether struct type t encodes as an object of its
// fields, not as a string of its own (time.Time).
func hasJSONFields(t reflect.Type) bool {
	if t.Implements(reflect.TypeFor[json.Marshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Marshaler]()) {
		return false
	}
	return true
}

// dedupe keeps the first of points that are exactly the same, with a
// note saying how many were left out.
func (f *File) dedupe() {
	seen := map[string]int{}
	var kept []Point
	var dups []int
	for i, p := range f.Points {
		key, err := json.Marshal(p)
		if err != nil {
			kept = append(kept, p)
			continue
		}
		if _, ok := seen[string(key)]; ok {
			dups = append(dups, i+1)
			continue
		}
		seen[string(key)] = i
		kept = append(kept, p)
	}
	if len(dups) == 0 {
		return
	}
	f.Points = kept
	f.Notes = append(f.Notes, fmt.Sprintf("%d point(s) repeat an earlier one exactly (point %s of the file), counted once", len(dups), strings.TrimPrefix(strings.TrimPrefix(lineList(dups), "lines "), "line ")))
}

// Merge is the points of several files in order, with exact duplicates
// across them counted once (as within one; see Open), and the files'
// notes followed by one on those duplicates.
func Merge(files ...*File) *File {
	all := &File{}
	for _, f := range files {
		all.Points = append(all.Points, f.Points...)
		all.Notes = append(all.Notes, f.Notes...)
	}
	n := len(all.Notes)
	all.dedupe()
	if len(all.Notes) > n {
		all.Notes[n] = "across the files: " + all.Notes[n]
	}
	return all
}
