// Package schedule is the schedule picture of the talk: which drink's step
// ran on which CPU, millisecond by millisecond, over a short span of one
// run. A Timeline holds it as bars, one per step on one CPU, named by the
// machine the step used and by whose drink it was; the gaps between bars
// are the waits — a customer waiting for a machine while its CPU idles.
//
// A timeline comes from the model (FromModel: the exact schedule the
// simulation kept, see model.Schedule) or from a real run's execution
// trace (FromTrace: a point measured with --profile, read with
// golang.org/x/exp/trace, where each step is a region coffee marks with
// its machine's name). Pick chooses, from a study's points, the two
// telling pictures the report draws: a mode that has hit a wall beside one
// that scales, at the CPU count where the difference shows.
//
// Drawing is package report's; WriteText draws a timeline in a terminal.
package schedule
