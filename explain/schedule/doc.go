// Package schedule answers "which drink's step ran on which CPU?" over a
// short span of one run: the talk's schedule picture, as an
// analysis.Timeline of bars. A timeline comes from the model (FromModel:
// the exact schedule the simulation kept) or from a real run's execution
// trace (FromTrace: a point measured with --profile, where each step is a
// region coffee marks with its machine's name). Pick chooses, from a
// study's points, the telling pictures: a mode that has hit a wall beside
// one that scales, at the CPU count where the difference shows. Drawing
// them is package report's; report/text writes them for a terminal.
package schedule
