#!/usr/bin/env bash
# The explanations audit of the code before causal profiles (commit
# c2a7dfc, the base of issue 14), for comparison with
# scripts/audit-explanations.sh: the same 432 model points (18 modes × 1–8
# CPUs × fifo and the go policy with fixed costs, wake-up 132 µs and
# 20 µs), each old threshold-and-template bottleneck checked against old
# advise's table (does the text recommend a change advise never tried, or
# only changes that gain 1 % or less?) and against the new causal profile
# of the same point (is the named resource the one whose relief gains
# most, or, where no single relief helps, does the text say so?).
# Needs git and the Go toolchain; works in a temporary folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-c2a7dfc}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old/cmd/olddump" "$tmp/new/internal/oldaudit"
git -C "$root" archive "$base" | tar -x -C "$tmp/old"
git -C "$root" archive HEAD | tar -x -C "$tmp/new"
# A row of the old audit: the old code writes it, the test on the new code
# reads it; one declaration for both.
rowtypes='type opt struct {
	Change, As string
	Gain       float64
}
type row struct {
	Policy, Mode string
	CPUs         int
	Resource     string
	Text         string
	Options      []opt
	Throughput   float64
}'
printf 'package main\n\n%s\n' "$rowtypes" > "$tmp/old/cmd/olddump/row.go"
printf 'package oldaudit\n\n%s\n' "$rowtypes" > "$tmp/new/internal/oldaudit/row_test.go"
cat > "$tmp/old/cmd/olddump/main.go" <<'GO'
package main

import (
	"encoding/json"
	"os"
	"time"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sim"
)

func main() {
	us := time.Microsecond
	costs := func(wake time.Duration) sim.Costs {
		return sim.Costs{Switch: 280 * time.Nanosecond, Wake: wake, SpinWake: 1200 * time.Nanosecond, SpinWindow: 80 * us,
			MutexHandoff: 3 * us, ChanHandoff: 3700 * time.Nanosecond, BufChanHandoff: 3600 * time.Nanosecond}
	}
	pols := []struct {
		name, sched string
		c           sim.Costs
	}{{"fifo", "fifo", sim.Costs{}}, {"go132", "go", costs(132 * us)}, {"go20", "go", costs(20 * us)}}
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "americano", "espresso", "multi-2", "multi-3",
		"linearpipe-0", "linearpipe-1", "linearpipe-10", "splitpipe-0", "splitpipe-1", "multipipe-2",
		"americanopipe-0", "americanopipe-1", "espressopipe-0", "espressopipe-1"}
	enc := json.NewEncoder(os.Stdout)
	for _, p := range pols {
		for _, m := range modes {
			for n := 1; n <= 8; n++ {
				cfg := model.DefaultConfig(n)
				cfg.Mode, cfg.Sched, cfg.Costs = m, p.sched, p.c
				a, err := advise.Mode(cfg)
				if err != nil {
					panic(err)
				}
				r := row{Policy: p.name, Mode: m, CPUs: n, Resource: a.Now.Bottleneck.Resource, Text: a.Now.Bottleneck.Text, Throughput: a.Now.Throughput}
				for _, o := range a.Options {
					r.Options = append(r.Options, opt{o.Change, o.As, o.ThroughputGain})
				}
				enc.Encode(r)
			}
		}
	}
}
GO
sed 's#"/tmp/old-audit.jsonl"#os.Getenv("OLD_AUDIT")#' > "$tmp/new/internal/oldaudit/old_test.go" <<'GO'
package oldaudit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sim"
)

// recommended parses the old text's advice into matchers on old options.
func recommended(text string) (names []string, match []func(opt) bool) {
	add := func(n string, f func(opt) bool) { names = append(names, n); match = append(match, f) }
	if strings.Contains(text, "add customers") {
		add("twice the customers", func(o opt) bool { return o.Change == "twice the customers" })
	}
	if strings.Contains(text, "add servers") {
		add("twice the servers", func(o opt) bool { return o.Change == "twice the servers" })
	}
	if strings.Contains(text, "add CPUs") {
		add("twice the CPUs", func(o opt) bool { return o.Change == "twice the CPUs" })
	}
	if m := regexp.MustCompile(`\((multi-\d+)\)`).FindStringSubmatch(text); m != nil {
		add(m[1], func(o opt) bool { return o.As == m[1] })
	}
	if strings.Contains(text, "(multipipe)") {
		add("multipipe", func(o opt) bool { return strings.HasPrefix(o.As, "multipipe-") })
	}
	for _, k := range []struct{ word, change string }{{"add a grinder", "another grinder"}, {"add a espresso", "another espresso machine"}, {"add a steamer", "another steamer"}} {
		if strings.Contains(text, k.word) {
			add(k.change, func(o opt) bool { return o.Change == k.change })
		}
	}
	for _, st := range []string{"grinding", "pressing", "steaming"} {
		if strings.Contains(text, "shorten "+st) {
			add(st+" ×0.75", func(o opt) bool { return o.As == st+" ×0.75" })
		}
	}
	if strings.Contains(text, "shorten their steps") || strings.Contains(text, "cost less CPU") {
		add("steps ×0.75", func(o opt) bool { return o.As == "steps ×0.75" })
	}
	if strings.Contains(text, "(finelocking)") {
		add("finelocking", func(o opt) bool { return o.As == "finelocking" })
	}
	if strings.Contains(text, "hold it for less") {
		add("hold it for less", func(o opt) bool { return false })
	}
	if strings.Contains(text, "add capacity") {
		add("add capacity", func(o opt) bool { return false })
	}
	return names, match
}

func TestOldAudit(t *testing.T) {
	f, err := os.Open("/tmp/old-audit.jsonl")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	us := time.Microsecond
	costs := func(wake time.Duration) sim.Costs {
		return sim.Costs{Switch: 280 * time.Nanosecond, Wake: wake, SpinWake: 1200 * time.Nanosecond, SpinWindow: 80 * us,
			MutexHandoff: 3 * us, ChanHandoff: 3700 * time.Nanosecond, BufChanHandoff: 3600 * time.Nanosecond}
	}
	pol := map[string]model.Config{"fifo": {Sched: "fifo"}, "go132": {Sched: "go", Costs: costs(132 * us)}, "go20": {Sched: "go", Costs: costs(20 * us)}}
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	var cfgs []model.Config
	for _, r := range rows {
		c := model.DefaultConfig(r.CPUs)
		c.Mode, c.Sched, c.Costs = coffee.MustParseMode(r.Mode), pol[r.Policy].Sched, pol[r.Policy].Costs
		cfgs = append(cfgs, c)
	}
	prs, err := causal.Modes(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	untried, useless, wrongNamed, any := 0, 0, 0, 0
	untriedPts, advisePts, c1, c2 := 0, 0, 0, 0
	customersNothing := 0
	byCat := map[string]int{}
	for i, r := range rows {
		names, match := recommended(r.Text)
		bad := false
		tried, helps := 0, 0
		hadUntried := false
		for j, m := range match {
			found := -1
			for k, o := range r.Options {
				if m(o) {
					found = k
				}
			}
			if found < 0 {
				hadUntried = true
				untried++
				bad = true
				byCat["never tried: "+names[j]]++
				continue
			}
			tried++
			if r.Options[found].Gain > 0.01 {
				helps++
			}
		}
		if tried > 0 && helps == 0 {
			useless++
			bad = true
		}
		if hadUntried {
			untriedPts++
		}
		if hadUntried || (tried > 0 && helps == 0) {
			advisePts++
		}
		if strings.Contains(r.Text, "add customers") {
			for _, o := range r.Options {
				if o.Change == "twice the customers" && o.Gain <= 0.01 {
					customersNothing++
				}
			}
		}
		// The named resource against the profile's experiments.
		b := prs[i].Bottleneck
		best := b.Profile[0]
		top := 0.0
		for _, e := range b.Profile {
			if slices.Contains(e.Resources, r.Resource) || (r.Resource == "kitchen" && slices.Contains(e.Resources, "kitchen")) {
				top = max(top, e.Gain)
			}
		}
		if best.Gain > 0.01 && top < best.Gain-0.01 {
			wrongNamed++
			c1++
			bad = true
		} else if best.Gain <= 0.01 && !strings.Contains(r.Text, "nothing") {
			// No single relief helps, and the words name one resource.
			wrongNamed++
			c2++
			bad = true
		}
		if bad {
			any++
		}
	}
	// Flips: the old resource differs between wake 132 µs and 20 µs where
	// the new profile's verdict does not.
	flips, rawFlips := 0, 0
	idx := map[string]int{}
	for i, r := range rows {
		idx[fmt.Sprintf("%s/%s/%d", r.Policy, r.Mode, r.CPUs)] = i
	}
	for _, r := range rows {
		if r.Policy != "go132" {
			continue
		}
		j := idx[fmt.Sprintf("go20/%s/%d", r.Mode, r.CPUs)]
		i := idx[fmt.Sprintf("go132/%s/%d", r.Mode, r.CPUs)]
		if rows[j].Resource != r.Resource {
			rawFlips++
		}
		if rows[j].Resource != r.Resource && slices.Equal(prs[i].Bottleneck.Resources, prs[j].Bottleneck.Resources) {
			flips++
		}
	}
	fmt.Printf("old audit: %d points; recommends a change never tried: %d (of points with one: see categories); every recommended change that was tried gains <= 1 %%: %d; 'add customers' where twice the customers gains <= 1 %%: %d; named resource not what its relief shows: %d; points with any contradiction: %d; flips between wake 132/20 where the profile does not flip: %d\n",
		len(rows), untried, useless, customersNothing, wrongNamed, any, flips)
	fmt.Printf("points recommending a change advise never tried: %d; points contradicting advise (never tried, or nothing recommended gains > 1 %%): %d; named resource's relief not the best where one helps: %d; a single resource named where none helps alone: %d; raw flips 132/20: %d\n", untriedPts, advisePts, c1, c2, rawFlips)
	for k, v := range byCat {
		fmt.Printf("  %s: %d\n", k, v)
	}
}
GO
(cd "$tmp/old" && go run ./cmd/olddump > "$tmp/old.jsonl")
(cd "$tmp/new" && OLD_AUDIT="$tmp/old.jsonl" go test ./internal/oldaudit -run '^TestOldAudit$' -count=1 -v | grep -v -E '^(=== |--- |PASS|ok)')
