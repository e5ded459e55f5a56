// Package lessons measures the claims of the seeds (the talks and articles
// brewput was built from) on this machine and gives each a statistical
// verdict: reproduced, not reproduced, or inconclusive.
//
// Each Claim is a value: the seed it comes from, the claim in one line,
// the seed's figure, what brewput measures for it, its threshold (a
// Rule), and how to take one sample here: the coffee shop through package
// sweep, a lab's Run with a small configuration, or the model, where the
// claim needs more CPUs than the machine has.
//
// A measured claim is sampled repeatedly (6 times in a quick run, 10 to
// 20 in a full one); its figure is the samples' median with benchmath's
// 95 % confidence interval, as package compare gives it. It is
// reproduced where the whole interval lies on the claim's side of its
// threshold, not reproduced where it lies on the other, and inconclusive
// where it straddles one, or with too few samples for an interval (the
// result then says about how many more would tell). A sample counts only
// if other processes took at most BusyLimit CPUs meanwhile; one beside a
// busy neighbour is taken again as time allows. Model claims are
// deterministic: one evaluation is the figure, exactly.
package lessons
