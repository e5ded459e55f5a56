package record

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
)

// The kinds of wait Summarize tells apart by the functions atop its stack.
const (
	KindMutex       = "mutex" // sync.Mutex or sync.RWMutex
	KindChanReceive = "chan receive"
	KindChanSend    = "chan send"
	KindSelect      = "select"
	KindCond        = "cond"      // sync.Cond.Wait
	KindWaitGroup   = "waitgroup" // sync.WaitGroup.Wait
	KindOther       = "other"
)

// DefaultMinShare is the share of all waiting below which a site is
// folded into one line.
const DefaultMinShare = 0.005

type Options struct {
	// Ignore lists functions (closures included) whose waits are nobody's
	// contention, such as the measurement's own clock.
	Ignore []string
	// MinShare is the share below which sites fold into a last "other" line;
	// 0 keeps every site.
	MinShare float64
}

// Summarize reads a block profile and says where goroutines waited: a
// line per kind and site with the count, total time and time per op,
// longest first, leaving out the runtime's goroutines, the profiling and
// opt.Ignore. A site (classify) reads "TEXT in FUNCTION at FILE:LINE",
// TEXT the source line where readable (results.SplitSite).
func Summarize(r io.Reader, ops int64, opt Options) ([]results.Wait, error) {
	p, err := profile.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("read block profile: %w", err)
	}
	count, delay := -1, -1
	for i, st := range p.SampleType {
		switch {
		case st.Type == "contentions" && st.Unit == "count":
			count = i
		case st.Type == "delay" && st.Unit == "nanoseconds":
			delay = i
		}
	}
	if count < 0 || delay < 0 {
		types := collect.Mapped(p.SampleType, func(st *profile.ValueType) string { return st.Type + "/" + st.Unit })
		return nil, fmt.Errorf("read block profile: it holds %s; want contentions/count and delay/nanoseconds, as a block profile does", strings.Join(types, ", "))
	}

	// Integer nanoseconds, so that sums do not hang on a map's order.
	type tally struct{ count, delay int64 }
	src := sources{}
	sites := map[[2]string]tally{} // by kind and site
	var totalNs int64
	own := ownFuncs()
	for _, smp := range p.Sample {
		frames := framesOf(smp)
		if ignored(frames, opt.Ignore) || profilers(frames, own) {
			continue
		}
		kind, site := classify(frames, src)
		t := sites[[2]string{kind, site}]
		t.count += smp.Value[count]
		t.delay += smp.Value[delay]
		sites[[2]string{kind, site}] = t
		totalNs += smp.Value[delay]
	}

	var waits []results.Wait
	var rest tally
	folded := 0
	for at, t := range sites {
		if opt.MinShare > 0 && float64(t.delay) < opt.MinShare*float64(totalNs) {
			folded++
			rest.count += t.count
			rest.delay += t.delay
			continue
		}
		waits = append(waits, results.Wait{Kind: at[0], Site: at[1], Count: t.count, TotalMs: float64(t.delay) / 1e6})
	}
	slices.SortFunc(waits, func(a, b results.Wait) int {
		return cmp.Or(cmp.Compare(b.TotalMs, a.TotalMs), cmp.Compare(a.Site, b.Site), cmp.Compare(a.Kind, b.Kind))
	})
	if folded > 0 {
		waits = append(waits, results.Wait{Kind: KindOther, Folded: folded, Under: opt.MinShare, Count: rest.count, TotalMs: float64(rest.delay) / 1e6})
	}
	for i := range waits {
		if ops > 0 {
			waits[i].PerOpMs = waits[i].TotalMs / float64(ops)
		}
	}
	return waits, nil
}

// SummarizeFile is Summarize of the block profile at path.
func SummarizeFile(path string, ops int64, opt Options) ([]results.Wait, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("summarize the waits: %w", err)
	}
	defer f.Close()
	waits, err := Summarize(f, ops, opt)
	if err != nil {
		return nil, fmt.Errorf("summarize the waits of %s: %w", path, err)
	}
	return waits, nil
}

// frame is a function on a wait's stack.
type frame struct {
	fn    string // full name, "github.com/brewput/brewput/coffee.(*fineLocking).Brew"
	file  string // as recorded, absolute for a build from source
	line  int64
	start int64 // the line where the function starts; 0 if unknown
}

// framesOf flattens a sample's stack, inlined calls included, innermost
// first (as a location's lines run).
func framesOf(s *profile.Sample) []frame {
	var out []frame
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function == nil {
				continue
			}
			out = append(out, frame{fn: l.Function.Name, file: l.Function.Filename, line: l.Line, start: l.Function.StartLine})
		}
	}
	return out
}

// ownFuncs are a Session's functions that wait in the profilers as it
// starts and stops them.
func ownFuncs() []string {
	return collect.Mapped([]any{Start, (*Session).Stop, (*Session).Abort}, func(f any) string {
		return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	})
}

// profilers says whether a stack is the runtime's own or the profiling's.
func profilers(frames []frame, own []string) bool {
	if len(frames) == 0 {
		return false
	}
	switch root := frames[len(frames)-1]; packageOf(root.fn) {
	case "runtime":
		if root.fn != "runtime.main" {
			return true
		}
	case "runtime/pprof", "runtime/trace":
		return true
	}
	return slices.ContainsFunc(frames, func(f frame) bool { return slices.Contains(own, f.fn) })
}

func ignored(frames []frame, ignore []string) bool {
	return slices.ContainsFunc(frames, func(f frame) bool {
		return slices.ContainsFunc(ignore, func(name string) bool { return f.fn == name || strings.HasPrefix(f.fn, name+".") })
	})
}

// classify names a wait's kind and site: the first frame outside the
// runtime and sync, or its caller in the same package unless a one-line
// wrapper (a machine's use method waits for whichever lock it was given;
// its caller says which).
func classify(frames []frame, src sources) (kind, site string) {
	kind = KindOther
	i := 0
	for i < len(frames) && isRuntime(frames[i].fn) {
		i++
	}
	for _, f := range frames[:i] {
		if kind = kindOf(f.fn); kind != KindOther {
			break
		}
	}
	if i == len(frames) {
		if len(frames) == 0 {
			return kind, "unknown"
		}
		// Only the runtime's own frames: name the outermost.
		return kind, describe(frames[len(frames)-1], src)
	}
	at := frames[i]
	if i+1 < len(frames) {
		caller := frames[i+1]
		// Calling on its first line: a one-line wrapper, go func() { stage() }().
		wrapper := caller.start != 0 && caller.start == caller.line
		if !isRuntime(caller.fn) && packageOf(caller.fn) == packageOf(at.fn) && !wrapper {
			at = caller
		}
	}
	return kind, describe(at, src)
}

func kindOf(fn string) string {
	switch {
	case strings.Contains(fn, "(*Mutex).") || strings.Contains(fn, "(*RWMutex)."):
		return KindMutex
	case strings.HasPrefix(fn, "runtime.chanrecv"):
		return KindChanReceive
	case strings.HasPrefix(fn, "runtime.chansend"):
		return KindChanSend
	case fn == "runtime.selectgo":
		return KindSelect
	case fn == "sync.(*Cond).Wait":
		return KindCond
	case fn == "sync.(*WaitGroup).Wait":
		return KindWaitGroup
	}
	return KindOther
}

// isRuntime says whether fn is the runtime's or sync's: how a wait
// happens, not where.
func isRuntime(fn string) bool {
	pkg := packageOf(fn)
	return slices.ContainsFunc([]string{"runtime", "sync", "internal"},
		func(std string) bool { return pkg == std || strings.HasPrefix(pkg, std+"/") })
}

func packageOf(fn string) string {
	slash := strings.LastIndex(pathPart(fn), "/")
	if dot := strings.Index(fn[slash+1:], "."); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

// shortFunc drops fn's package folders: "coffee.(*fineLocking).Brew".
func shortFunc(fn string) string {
	return fn[strings.LastIndex(pathPart(fn), "/")+1:]
}

// pathPart is fn before any receiver or type arguments, which may hold
// paths of their own.
func pathPart(fn string) string {
	if i := strings.IndexAny(fn, "[("); i >= 0 {
		return fn[:i]
	}
	return fn
}

func describe(f frame, src sources) string {
	loc := fmt.Sprintf("%s:%d", shortFile(f.file), f.line)
	if text := src.line(f.file, f.line); text != "" {
		return fmt.Sprintf("%s in %s at %s", text, shortFunc(f.fn), loc)
	}
	return fmt.Sprintf("%s at %s", shortFunc(f.fn), loc)
}

// shortFile keeps a file's folder and name: "coffee/finelocking.go".
func shortFile(file string) string {
	if file == "" {
		return "?"
	}
	dir := filepath.Base(filepath.Dir(file))
	if dir == "." || dir == string(filepath.Separator) {
		return filepath.Base(file)
	}
	return dir + "/" + filepath.Base(file)
}

// sources reads each source file once.
type sources map[string][]string

const maxText = 72

// line is line n of file, trimmed; "" where unreadable or a brace.
func (s sources) line(file string, n int64) string {
	lines, ok := s[file]
	if !ok {
		if filepath.IsAbs(file) { // a relative one would be read from wherever this runs
			if data, err := os.ReadFile(file); err == nil {
				lines = strings.Split(string(data), "\n")
			}
		}
		s[file] = lines
	}
	if n < 1 || int(n) > len(lines) {
		return ""
	}
	text := strings.TrimSpace(lines[n-1])
	if strings.Trim(text, "{}() ") == "" {
		return ""
	}
	if r := []rune(text); len(r) > maxText {
		text = string(r[:maxText-1]) + "…"
	}
	return text
}
