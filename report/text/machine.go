package text

import "fmt"

// What a band spans of a machine whose costs are not measured, as
// published machines show them (model's unknownTransfer and all-core
// speeds): how long a word cores add to stays at a core, its all-core
// speed, and, for an unknown machine, moving a cache line.
const (
	stayAbout    = "; a word its cores add to staying at a core from none to the whole of the move that brought it (the point half)"
	allCoreAbout = "75–100 % of one core's speed with every core busy, the slow edge from two busy cores on: what published machines show"
	unknownAbout = "moving a cache line between cores 20–80 ns, between sockets 100–200 ns, and " + allCoreAbout + stayAbout
	// KnownAbout says what a band spans on a machine whose costs are
	// known: its all-core speed, not measured.
	KnownAbout    = "how fast its cores run with every one busy not measured: the band spans 75–100 % of one alone's speed, the slow edge from the second busy core on, as published machines show" + stayAbout
	threadedAbout = "; its CPUs perhaps hardware threads, two to a core, as a cloud's vCPUs are"
)

// UnknownMachine says what a prediction for an unknown machine of cpus
// CPUs rests on, its CPUs perhaps hardware threads where threaded.
func UnknownMachine(cpus int, threaded bool) string {
	if threaded {
		return fmt.Sprintf("an unknown machine of %d CPUs (%s%s)", cpus, unknownAbout, threadedAbout)
	}
	return fmt.Sprintf("an unknown machine of %d CPUs (%s)", cpus, unknownAbout)
}
