package results

import (
	"regexp"
	"strings"
)

// Wait is one place where a point's goroutines waited, from its block
// profile: a lock, a channel operation, a select.
type Wait struct {
	// Kind is what was waited on: "mutex", "chan receive", "chan send",
	// "select", "cond", "waitgroup" or "other"; or, for a benchmark whose
	// locks were watched, which of the runtime's own locks (WaitChanLock,
	// WaitTimerLock, WaitRuntimeLock), as Go's mutex profile records them.
	Kind string `json:"kind"`
	// Site is the function and file:line, with the call's source text;
	// where Folded smaller sites are summed up instead, each under Under
	// of the total, "" (report/text's WaitSite says it).
	Site   string  `json:"site"`
	Folded int     `json:"folded,omitempty"`
	Under  float64 `json:"under,omitempty"`
	// Count is the waits recorded, TotalMs their time, PerOpMs per operation.
	Count   int64   `json:"count"`
	TotalMs float64 `json:"total_ms"`
	PerOpMs float64 `json:"per_op_ms"`
}

// The kinds of a watched benchmark's waits for the runtime's own locks.
const (
	WaitChanLock    = "chan lock"    // a channel's, which every send and receive takes
	WaitTimerLock   = "timer lock"   // a timer's
	WaitRuntimeLock = "runtime lock" // the scheduler's, the allocator's, the collector's
)

// SplitSite takes apart a site as a Wait records it: the source text (or
// ""), the function and the file:line; another site, the folded line's,
// comes back as text alone.
func SplitSite(site string) (text, function, location string) {
	i := strings.LastIndex(site, " at ")
	if i < 0 || !locationRE.MatchString(site[i+len(" at "):]) {
		return site, "", ""
	}
	head, location := site[:i], site[i+len(" at "):]
	if j := strings.LastIndex(head, " in "); j >= 0 {
		return head[:j], head[j+len(" in "):], location
	}
	return "", head, location
}

// locationRE matches a site's file:line.
var locationRE = regexp.MustCompile(`^\S+:\d+$`)
