// Package usl fits Neil Gunther's Universal Scalability Law to
// observations of throughput X against a concurrency N (CPUs, customers):
//
//	X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// λ is the throughput of one (N = 1, ideally); σ, contention, is the share
// of the work that is serialized, which bends the curve flat toward λ/σ
// (Amdahl's law, the κ = 0 case, where σ is the serial fraction); κ,
// coherency, is the cost of every pair of participants keeping each other
// up to date, which bends the curve back down after a peak at
// N* = √((1−σ)/κ).
//
// Fit and FitAmdahl do nonlinear least squares with gonum's optimize
// package (Nelder–Mead) under σ ≥ 0, κ ≥ 0, λ > 0. The package knows
// nothing of results files: observations are plain (N, X) pairs, and a
// repeated N is simply one more observation.
package usl
