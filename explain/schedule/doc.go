// Package schedule answers "which drink's step ran on which CPU?" over a
// short span of one run, as an analysis.Timeline of bars: the model's
// exact schedule (FromModel) or a measured run's execution trace
// (FromTrace). Pick and Pictures choose the telling pictures: a mode at a
// wall beside one that scales, where the difference shows.
package schedule
