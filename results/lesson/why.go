package lesson

// Why is what a verdict rests on, as facts; report/text's LessonReason
// says it in words (a Result read from a file has the words, Reason).
type Why struct {
	Kind WhyKind
	// Need is the samples an interval needs or, for WhyCPUs, the CPUs
	// the claim needs, of which this machine has Have.
	Need, Have int
}

// WhyKind is the kind of reason for a verdict.
type WhyKind int

const (
	WhyNone        WhyKind = iota
	WhyModel               // the model's figure, exact
	WhyRace                // not measured under the race detector
	WhyCPUs                // not measured: more CPUs than the machine has
	WhyFailed              // failed to measure (Error)
	WhyDisturbed           // too few quiet samples for an interval
	WhyOutOfTime           // out of time before an interval
	WhyTooFew              // too few samples for an interval
	WhyInterval            // the whole interval on one side of the threshold
	WhyOnThreshold         // the interval straddles it, its median on it
	WhyStraddles           // the interval straddles it: MoreRuns would tell
)
