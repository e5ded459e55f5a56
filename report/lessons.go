package report

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/lesson"
)

// lessonsView is the lessons section: brewput lessons' verdicts by seed.
type lessonsView struct {
	Summary string
	// Runs say where and how the verdicts were measured, per machine and level.
	Runs  []string
	Seeds []lessonSeedView
}

type lessonSeedView struct {
	Seed string
	Rows []lessonRow
}

type lessonRow struct {
	Claim, Text, SeedFigure, Correction, Figure, Measures, Rule, CPUs, Others, Verdict, Reason string
	// Class colours the row by its verdict.
	Class string
}

// lessonViews lays out the verdicts, seeds in order of appearance.
func lessonViews(rs []lesson.Result) lessonsView {
	v := lessonsView{Summary: text.LessonTally(rs), Runs: distinct(rs, func(r lesson.Result) string {
		return fmt.Sprintf("%s run on %s (%d cores, %s)", r.Level, cmp.Or(r.Host.Name, "an unnamed machine"), r.Host.Cores, r.Host.GoVersion)
	})}
	seeds, bySeed := groupBy(rs, func(r lesson.Result) string { return r.Seed })
	for _, seed := range seeds {
		sv := lessonSeedView{Seed: seed}
		for _, r := range bySeed[seed] {
			others := fmt.Sprintf("%.2f (%.2f with those discarded)", r.Others, r.OthersAll)
			switch {
			case r.Model:
				others = "model (" + r.Sched + ")"
			case r.Figure.N == 0:
				others = fmt.Sprintf("%.2f, every sample discarded", r.OthersAll)
			case r.Discarded == 0:
				others = fmt.Sprintf("%.2f", r.Others)
			}
			verdict := string(r.Verdict)
			if r.Disturbed {
				verdict += ", disturbed"
			}
			sv.Rows = append(sv.Rows, lessonRow{
				Claim: r.Claim, Text: r.Text, SeedFigure: r.SeedFigure, Correction: r.Correction, Figure: text.LessonFigure(r), Measures: r.Measures,
				Rule: r.RuleText(), CPUs: format.Ints(r.CPUs, ", "), Others: others, Verdict: verdict, Reason: text.LessonReason(r),
				Class: strings.ReplaceAll(string(r.Verdict), " ", ""),
			})
		}
		v.Seeds = append(v.Seeds, sv)
	}
	return v
}

// LessonsFile is the verdicts' file in a report's folder, which brewput
// report reads back.
const LessonsFile = "lessons.json"

// lessonsFile is the verdicts as JSON Lines.
func lessonsFile(rs []lesson.Result) (File, error) {
	var b bytes.Buffer
	for _, r := range rs {
		r.Reason = text.LessonReason(r)
		if err := lesson.WriteJSON(&b, r); err != nil {
			return File{}, fmt.Errorf("write %s: %w", LessonsFile, err)
		}
	}
	return File{Name: LessonsFile, Data: b.Bytes()}, nil
}
