package verdict

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// measuredDisturbed reports whether p was measured while other processes
// took CPU from it (results.Point.IsDisturbed); a model's point never is.
func measuredDisturbed(p results.Point) bool { return !p.IsModel() && p.IsDisturbed() }

// WriteText writes the verdict for a terminal, the answer first and
// each thing once, leaving each mode's figures and limits to the compact
// table (WriteCompact): a headline for each count of interest (what makes
// the most there), which designs are only a reference (a data race), the
// best change each mode's causal profile tried; then each study's
// sentences, which say what its variants measured and no limit. The page
// says the rest in full (Count.Sentence).
func (v Verdict) WriteText(w io.Writer) error {
	for _, c := range v.Counts {
		if _, err := fmt.Fprintln(w, format.Wrap(c.Headline, 110, "")); err != nil {
			return err
		}
	}
	for _, s := range []string{v.referenceSentence(), v.changesSentence()} {
		if s == "" {
			continue
		}
		if _, err := fmt.Fprintln(w, format.Wrap(s, 110, "")); err != nil {
			return err
		}
	}
	for i, d := range v.Studies {
		if i > 0 || len(v.Counts) > 0 {
			fmt.Fprintln(w)
		}
		as := "as measured"
		if d.Prediction != nil {
			as += " and as a model made of its meters predicts"
		}
		fmt.Fprintf(w, "Study %s, %s (%s):\n", d.Study, as, noLimit)
		for _, s := range d.Sentences() {
			if _, err := fmt.Fprintln(w, format.Wrap(s, 110, "")); err != nil {
				return err
			}
		}
	}
	if len(v.Benches) > 0 && (len(v.Counts) > 0 || len(v.Studies) > 0) {
		fmt.Fprintln(w)
	}
	return WriteBenchAnswer(w, v.Benches)
}

// referenceSentence says which designs of the counts of interest have a
// data race: "ideal has a data race (no synchronization at all): the
// limit of the CPUs, a reference, not a valid design."; "" where none
// has.
func (v Verdict) referenceSentence() string {
	var modes []string
	for _, c := range v.Counts {
		for _, r := range c.References {
			if !slices.Contains(modes, r.Mode) {
				modes = append(modes, r.Mode)
			}
		}
	}
	switch len(modes) {
	case 0:
		return ""
	case 1:
		return modes[0] + " has a data race (no synchronization at all): the limit of the CPUs, a reference, not a valid design."
	}
	return format.JoinAnd(modes) + " have a data race (no synchronization at all): the limit of the CPUs, references, not valid designs."
}

// changesSentence says the best change each valid mode's causal profile
// tried where the mode is judged (ModeLimit), the most gain first, modes
// whose change and gain are the same together: "The best change each
// mode's causal profile tried on 8 CPUs, model (go): linearpipe-1 and
// linearpipe-10, another grinder + another steamer: +84 %; locking, the
// kitchen lock held for less: +29 %."; "" where no profile tried one. The
// limits themselves are the compact table's.
func (v Verdict) changesSentence() string {
	where := func(m ModeLimit) string { return format.Count(m.CPUs, "CPU") + ", " + m.Source }
	var tried []ModeLimit
	for _, m := range v.Modes {
		if m.Limit.Change != "" && !races(m.Mode) {
			tried = append(tried, m)
		}
	}
	if len(tried) == 0 {
		return ""
	}
	same := true
	for _, m := range tried {
		same = same && where(m) == where(tried[0])
	}
	slices.SortStableFunc(tried, func(a, b ModeLimit) int { return cmp.Compare(b.Limit.Gain, a.Limit.Gain) })
	type change struct {
		modes []string
		says  string
	}
	var changes []*change
	for _, m := range tried {
		says := m.Limit.Change + ": " + format.Gain(m.Limit.Gain)
		if !same {
			says += " on " + where(m)
		}
		i := slices.IndexFunc(changes, func(c *change) bool { return c.says == says })
		if i < 0 {
			changes = append(changes, &change{says: says})
			i = len(changes) - 1
		}
		changes[i].modes = append(changes[i].modes, m.Mode)
	}
	parts := make([]string, len(changes))
	for i, c := range changes {
		parts[i] = format.JoinAnd(c.modes) + ", " + c.says
	}
	lead := "The best change each mode's causal profile tried"
	if same {
		lead += " on " + where(tried[0])
	} else {
		lead += " at the most CPUs it was run or predicted on"
	}
	return lead + ": " + strings.Join(parts, "; ") + "."
}

// noLimit says in short why a study's verdict names no limit, measured
// or predicted: what limits the user's code is shown only by experiment.
const noLimit = "brewput names a limit of this code only by experiment: the study's why command runs one"

// WriteCompact writes the short table of points for a terminal: the
// shop's measured points and the model's predictions, each summarized a
// row per mode (writeRanges); then each study's variants (package study),
// a row per variant and CPU count with the median of its repetitions, its
// ratio to the most on that count and the meter it used the most — as
// measured, with no limit, which brewput names of the user's code only by
// experiment; then each study's predicted points (WritePrediction);
// then the labs' points as labs writes them (package report answers each
// with its chart's numbers; nil writes them in full), and the Go
// benchmarks' table, as results.WriteTable writes it. results.WriteTable
// writes every point in full.
func WriteCompact(w io.Writer, points []results.Point, labs func(io.Writer, []results.Point) error) error {
	others, benches := results.SplitBench(points)
	shop, _, _ := results.SplitLabs(others)
	var measured, model, studies, predicted, labPoints []results.Point
	for _, p := range shop {
		switch {
		case p.Kind() == results.KindStudy && p.IsModel():
			predicted = append(predicted, p)
		case p.Kind() == results.KindStudy:
			studies = append(studies, p)
		case p.IsModel():
			model = append(model, p)
		default:
			measured = append(measured, p)
		}
	}
	for _, p := range others {
		if p.Kind() == results.KindLab {
			labPoints = append(labPoints, p)
		}
	}
	wrote := false
	sep := func() {
		if wrote {
			fmt.Fprintln(w)
		}
		wrote = true
	}
	if len(measured) > 0 {
		sep()
		if err := writeRanges(w, measured); err != nil {
			return err
		}
	}
	if len(model) > 0 {
		sep()
		if err := writeRanges(w, model); err != nil {
			return err
		}
	}
	if len(studies) > 0 {
		sep()
		if err := writeStudies(w, studies); err != nil {
			return err
		}
	}
	names, byStudy := groupBy(predicted, func(p results.Point) (string, bool) { return p.Study, true })
	for _, name := range names {
		sep()
		fmt.Fprintf(w, "study %s, %s:\n", name, predictionOf(byStudy[name]).Source)
		if err := WritePrediction(w, slices.Concat(byStudy[name], studies), nil); err != nil {
			return err
		}
	}
	if len(labPoints) > 0 {
		sep()
		if labs == nil {
			labs = results.WriteTable
		}
		if err := labs(w, labPoints); err != nil {
			return err
		}
	}
	if len(benches) > 0 {
		sep()
		if err := results.WriteTable(w, benches); err != nil {
			return err
		}
	}
	return nil
}

// loadText says a point's load and policy in short: "4 customers",
// "fifo, open loop of 800 orders/s, 2 servers". sched says to name the
// policy; series, to name the load even where it is the default, one
// customer or server per CPU, for a mode of several series.
func loadText(p results.Point, sched, series bool) string {
	var parts []string
	if sched && p.Sched != "" {
		parts = append(parts, p.Sched)
	}
	if p.Rate > 0 {
		parts = append(parts, "open loop of "+format.Number(p.Rate)+" orders/s")
	}
	switch {
	case p.Par == p.CPUs:
		if series {
			parts = append(parts, "one per CPU")
		}
	case p.Rate > 0:
		parts = append(parts, format.Count(p.Par, "server"))
	default:
		parts = append(parts, format.Count(p.Par, "customer"))
	}
	if p.Harness != "" {
		parts = append(parts, p.Harness+" harness")
	}
	return strings.Join(parts, ", ")
}

// writeRanges summarizes points, all measured or all predicted, a row per
// mode (and series, where a mode has several: machine, policy, load): its
// CPU counts, its throughput and median latency from least to most (the
// median of a count's repetitions), and what limits it over which counts.
// A heading says where they come from (the model's, for which machine's
// costs); a line under the measurements, which were disturbed.
func writeRanges(w io.Writer, points []results.Point) error {
	type group struct {
		mode, id string
		ps       []results.Point
	}
	var groups []*group
	index := map[string]*group{}
	ids := map[string][]string{} // a mode's series
	origins, scheds := map[string]bool{}, map[string]bool{}
	reps := false
	for _, p := range points {
		id := seriesID(p)
		if !slices.Contains(ids[p.Mode], id) {
			ids[p.Mode] = append(ids[p.Mode], id)
		}
		k := p.Mode + "\x00" + id
		g, ok := index[k]
		if !ok {
			g = &group{mode: p.Mode, id: id}
			index[k] = g
			groups = append(groups, g)
		}
		g.ps = append(g.ps, p)
		origins[p.Origin()] = true
		scheds[p.Sched] = true
		reps = reps || p.Rep > 1
	}
	model := points[0].IsModel()
	hosts := inOrder(points, origins)
	head := "measured on " + strings.Join(hosts, ", ")
	if model {
		head = "predicted by the model"
		if len(scheds) == 1 && points[0].Sched != "" {
			head += " (" + points[0].Sched + ")"
		}
		// Which calibration, not its every cost: those are the full
		// table's (results.CalibrationLines).
		var fors []string
		for _, p := range points {
			if p.Calibration != nil && !slices.Contains(fors, p.Calibration.For()) {
				fors = append(fors, p.Calibration.For())
			}
		}
		if len(fors) > 0 {
			head += ", " + strings.Join(fors, "; ")
		}
	}
	head += ": " + format.Count(len(points), "point") + ", per mode"
	if reps {
		head += ", the median of each count's runs"
	}
	fmt.Fprintln(w, head)
	t := format.Table{Ragged: true}
	t.Row("mode", "cpus", "throughput", "p50 ms", "limited by")
	var disturbed []string
	for _, g := range groups {
		name := g.mode
		if races(g.mode) {
			name += " (data race)"
		}
		p0 := g.ps[0]
		switch {
		case len(ids[g.mode]) > 1:
			name += " (" + loadText(p0, len(scheds) > 1, true) + ")"
			if !model && len(hosts) > 1 {
				name += " on " + p0.Origin()
			}
		case p0.Rate > 0 || p0.Harness != "":
			name += " (" + loadText(p0, false, false) + ")"
		}
		grid := NewGrid(g.ps)
		lo, hi, p50lo, p50hi := 0.0, 0.0, 0.0, 0.0
		var limits []string
		lastClass, from, prev := "", 0, 0
		flush := func() {
			if lastClass == "" {
				return
			}
			c, _ := grid.At(g.mode, prev)
			limits = append(limits, fmt.Sprintf("%s (%s)", c.Shown().Limit.Named, format.Range(itoa(from), itoa(prev))))
		}
		for i, n := range grid.CPUs {
			c, _ := grid.At(g.mode, n)
			e := c.Shown()
			if i == 0 {
				lo, hi, p50lo, p50hi = e.Throughput, e.Throughput, e.P50, e.P50
			}
			lo, hi = min(lo, e.Throughput), max(hi, e.Throughput)
			p50lo, p50hi = min(p50lo, e.P50), max(p50hi, e.P50)
			if e.Limit.Class != lastClass {
				flush()
				lastClass, from = e.Limit.Class, n
			}
			prev = n
			if e.Disturbed > 0 {
				d := fmt.Sprintf("%s on %s", name, format.Count(n, "CPU"))
				if e.Reps > 1 {
					d += fmt.Sprintf(" (%d of %d runs)", e.Disturbed, e.Reps)
				}
				disturbed = append(disturbed, d)
			}
		}
		flush()
		t.Row(name, format.Range(itoa(grid.CPUs[0]), itoa(grid.CPUs[len(grid.CPUs)-1])),
			format.Range(format.Whole(lo), format.Whole(hi))+" "+p0.Unit, format.Range(format.Ms3(p50lo), format.Ms3(p50hi)), strings.Join(limits, ", "))
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if len(disturbed) > 0 {
		fmt.Fprintln(w, format.Wrap("Disturbed (other processes took CPU while they were measured; such a point says little about the design): "+
			format.JoinAnd(disturbed)+".", 110, ""))
	}
	return nil
}

// writeStudies writes the studies' points compactly: a row per variant,
// CPU count and series (machine and load), the medians of its
// repetitions, the ratio of its throughput to the most of its study on
// that count and series, and the meter its first repetition used the most
// (results.BusiestMeter).
func writeStudies(w io.Writer, points []results.Point) error {
	type key struct {
		study, variant, id string
		cpus               int
	}
	var keys []key
	by := map[key][]results.Point{}
	reps, open := false, false
	var disturbed []string
	origins := map[string]bool{}
	for _, p := range points {
		k := key{p.Study, p.Mode, seriesID(p), p.CPUs}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], p)
		reps = reps || p.Rep > 0
		open = open || p.Rate > 0
		origins[p.Origin()] = true
	}
	type at struct {
		study, id string
		cpus      int
	}
	most := map[at]float64{}
	tput := func(k key) float64 {
		var xs []float64
		for _, p := range by[k] {
			xs = append(xs, p.Throughput)
		}
		return results.Median(xs)
	}
	for _, k := range keys {
		a := at{k.study, k.id, k.cpus}
		most[a] = max(most[a], tput(k))
	}
	var studies []string
	for _, k := range keys {
		if !slices.Contains(studies, k.study) {
			studies = append(studies, k.study)
		}
	}
	hosts := inOrder(points, origins)
	fmt.Fprintf(w, "study %s, measured on %s: %d points, the median of each variant's runs (no causal profile: a limit is named only by experiment)\n", strings.Join(studies, ", "), strings.Join(hosts, ", "), len(points))
	sources := len(hosts) > 1
	head := tableHead("variant", reps, "runs", open, "throughput\tof the most\tp50\tp99\tcpu util\tmost used meter (held, mean wait)\t")
	if sources {
		head += "source\t"
	}
	t := format.Table{Align: []format.Align{format.Right}, Indent: true}
	t.Row(cells(head)...)
	for _, k := range keys {
		ps := by[k]
		p := ps[0]
		var p50, p99, util []float64
		var drops int64
		for _, q := range ps {
			p50 = append(p50, q.Latency.P50)
			p99 = append(p99, q.Latency.P99)
			util = append(util, q.Util)
			drops += q.Drops
		}
		if d := disturbedRuns(p.Mode, ps); d != "" {
			disturbed = append(disturbed, d+" on "+format.Count(p.CPUs, "CPU"))
		}
		row := fmt.Sprintf("%s\t%d\t%d\t", p.Mode, p.CPUs, p.Par)
		if reps {
			row += fmt.Sprintf("%d\t", len(ps))
		}
		if open {
			row += fmt.Sprintf("%g\t%d\t", p.Rate, drops)
		}
		share := "-"
		if m := most[at{k.study, k.id, k.cpus}]; m > 0 {
			share = fmt.Sprintf("×%s", format.Sig(tput(k)/m, 2))
		}
		row += fmt.Sprintf("%s\t%s\t%s\t%s\t%.0f%%\t%s\t", format.Rate(tput(k), p.Unit), share,
			format.Wait(results.Median(p50)), format.Wait(results.Median(p99)), 100*results.Median(util), results.BusiestMeter(p))
		if sources {
			row += p.Origin() + "\t"
		}
		t.Row(cells(row)...)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if len(disturbed) > 0 {
		fmt.Fprintln(w, format.Wrap("Disturbed (other processes took CPU while they were measured): "+strings.Join(disturbed, ", ")+".", 110, ""))
	}
	return nil
}

// cells splits a row of tab-terminated cells.
func cells(row string) []string { return strings.Split(strings.TrimSuffix(row, "\t"), "\t") }

// tableHead is the head of a table of points, but for the source: what a
// row is, its CPUs and workers, a column of repetitions (named rep) where
// there are several, the open loop's rate and drops where there is one,
// then the measures.
func tableHead(what string, reps bool, rep string, open bool, measures string) string {
	head := what + "\tcpus\tpar\t"
	if reps {
		head += rep + "\t"
	}
	if open {
		head += "rate/s\tdrops\t"
	}
	return head + measures
}

// inOrder lists the origins among points that are in origins, each once,
// in the order the points first show them.
func inOrder(points []results.Point, origins map[string]bool) []string {
	var hosts []string
	seen := map[string]bool{}
	for _, p := range points {
		if o := p.Origin(); origins[o] && !seen[o] {
			hosts = append(hosts, o)
			seen[o] = true
		}
	}
	return hosts
}
