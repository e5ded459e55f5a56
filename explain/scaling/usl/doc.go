// Package usl fits Neil Gunther's Universal Scalability Law to
// observations of throughput X against a concurrency N (CPUs, customers):
//
//	X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// λ is the throughput of one; σ, contention, the serialized share of the
// work, bends the curve flat toward λ/σ (Amdahl's law, κ = 0); κ,
// coherency, the cost of every pair keeping each other up to date, bends
// it back down after a peak at N* = √((1−σ)/κ). Fits are nonlinear least
// squares (gonum's Nelder–Mead) over plain (N, X) pairs.
package usl
