package verdict

import (
	"slices"

	"github.com/brewput/brewput/results"
)

// Described is what the verdict says of one study's variants (package
// study): the user's own code, measured. It says which variant makes the
// most on each CPU count of interest and by how much, with intervals —
// "the most" only where every other is significantly less — and how each
// variant's throughput changed from the fewest CPUs to the most. What
// limits a variant is found by experiment (the study's why command), not
// read from these figures.
type Described struct {
	// Study is the study's name.
	Study string
	Unit  string
	// Counts are the CPU counts of interest (countsOfInterest).
	Counts []Standing
	// Scaling says, where there are two counts or more, how each
	// variant's throughput changed from the fewest to the most CPUs;
	// Changes are its figures. Empty otherwise.
	Scaling string
	Changes []Versus
	// Prediction is what the study's model predicts (its predict
	// command), where points hold predicted ones; nil otherwise.
	Prediction *Prediction
}

// Studies describes the studies' points among points (every other kind is
// left out), a Described for each study in the order they first appear.
// Of each variant it takes one series — the first machine and load it was
// measured under — so that like is compared with like, and reduces
// repetitions to medians.
func Studies(points []results.Point) []Described {
	names, by := groupBy(points, func(p results.Point) (string, bool) { return p.Study, p.Kind() == results.KindStudy })
	var out []Described
	for _, n := range names {
		if d, ok := describe(n, by[n]); ok {
			out = append(out, d)
		}
	}
	return out
}

// studyCount is how a study's command line spells the count of runs.
const studyCount = "--count"

func describe(study string, points []results.Point) (Described, bool) {
	d := Described{Study: study, Unit: points[0].Unit, Prediction: predictionOf(points)}
	var variants []string
	var counts []int
	first := map[string]string{}
	type key struct {
		variant string
		cpus    int
	}
	group := map[key][]results.Point{}
	for _, p := range points {
		if p.IsModel() {
			continue
		}
		id := seriesID(p)
		if f, ok := first[p.Mode]; !ok {
			first[p.Mode] = id
		} else if f != id {
			continue
		}
		if !slices.Contains(variants, p.Mode) {
			variants = append(variants, p.Mode)
		}
		if !slices.Contains(counts, p.CPUs) {
			counts = append(counts, p.CPUs)
		}
		group[key{p.Mode, p.CPUs}] = append(group[key{p.Mode, p.CPUs}], p)
	}
	if len(counts) == 0 {
		return d, d.Prediction != nil
	}
	slices.Sort(counts)
	at := func(v string, n int) []results.Point { return group[key{v, n}] }
	for _, n := range countsOfInterest(counts) {
		var ss []series
		hosts := ""
		for _, v := range variants {
			if ps := at(v, n); len(ps) > 0 {
				ss = append(ss, series{v, ps})
				hosts = appendFirst(hosts, ps[0].Origin())
			}
		}
		d.Counts = append(d.Counts, standing(n, "measured on "+hosts, d.Unit, studyCount, ss))
	}
	if len(counts) > 1 {
		d.Scaling, d.Changes = scalingFrom(counts[0], counts[len(counts)-1], variants, studyCount, at)
	}
	return d, true
}

// Sentences are what the description says, a sentence for each count of
// interest and one on how the variants scaled, then the prediction's.
func (d Described) Sentences() []string {
	out := sentences(d.Counts, d.Scaling)
	if d.Prediction != nil {
		out = append(out, d.Prediction.Sentences()...)
	}
	return out
}
