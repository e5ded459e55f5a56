// Package scaling answers "how does it scale, and what bounds it?": the
// Universal Scalability Law, Amdahl's law or a straight line fitted to
// each series and chosen by AIC (Fits), with what the data show of its
// peak; and the bounds the model's structure sets on each resource a
// point holds (Resources). What limits a point is found by experiment, in
// package limits.
package scaling
