// Package lessons measures the claims of the seeds (the talks and articles
// brewput was built from) on this machine and gives each a statistical
// verdict: reproduced, not reproduced, or inconclusive.
//
// Each Claim is a value: its name, the seed file it comes from, the claim
// in one line, the seed's own figure, what brewput measures for it, the
// threshold that says what bears it out (a Rule), and how to take one
// sample of that figure here: the coffee shop through package sweep, a lab
// through its Run with a small configuration, or the model, where the
// claim needs more CPUs than the machine has. Run takes each claim's
// samples and decides.
//
// # The verdict
//
// A measured claim is sampled repeatedly (6 times in a quick run, 10 to 20
// in a full one). Its figure is the samples' median with the 95 %
// confidence interval benchmath gives it (as package compare does), which
// assumes nothing about the distribution. Then, with the claim's side of
// its threshold being the figures that bear it out (at least ×1.7, at most
// ×1.0, between 360 and 440 ms):
//
//   - reproduced: the whole interval lies on the claim's side;
//   - not reproduced: the whole interval lies on the other side;
//   - inconclusive: the interval straddles a threshold, or there are too
//     few samples for an interval (fewer than 6), or too few were measured
//     on a quiet machine. The result says how many more samples would
//     likely tell, from how far the median sits from the threshold against
//     the interval's width, which shrinks as one over the square root of
//     the samples.
//
// A sample counts only if other processes (and the hypervisor) took at
// most BusyLimit CPUs while it was measured, as package quiet reads them:
// a sample taken beside a busy neighbour is discarded and taken again, as
// time allows, and a claim left with too few quiet samples is inconclusive
// and says it was disturbed. Model claims are deterministic (the fifo
// policy, or stated costs): one evaluation is the figure, exactly, and the
// rule applies to it.
package lessons
