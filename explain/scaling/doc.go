// Package scaling answers "how does it scale, and what bounds it?" from a
// study's results: how much of the time each
// resource a point holds was held and working, the bound the model's
// structure sets for it (Resources), and how each mode scales (the
// Universal Scalability Law, Amdahl's law or a straight line, fitted to
// its throughput and chosen by AIC). What limits a point is not read from
// its counters here: package limits finds it by experiment, in the model.
// Of the user's own code (a study's measured points) there is no causal
// profile: Describe says what its meters measured, and no more.
package scaling
