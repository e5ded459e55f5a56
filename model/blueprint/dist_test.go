package blueprint

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// goleak checks after all tests that every simulation unwound its
// processes' coroutines.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// sample draws n durations from d with a seeded source, as a run draws
// them from sim.Sim.Rand, and returns their mean, least and greatest.
func sample(d dist, n int) (mean float64, lo, hi time.Duration) {
	r := rand.New(rand.NewPCG(1, 2))
	lo, hi = time.Duration(math.MaxInt64), 0
	sum := 0.0
	for range n {
		x := d.draw(r)
		sum += float64(x)
		lo, hi = min(lo, x), max(hi, x)
	}
	return sum / float64(n), lo, hi
}

// TestDistributions draws 200 000 durations from each distribution and
// checks their mean against the distribution's (which the bounds use) and
// their range. The standard error of the mean is at most stddev/√n, under
// 0.25 % of these means, so 1 % is a wide margin that a wrong formula or
// a wrong scale still fails.
func TestDistributions(t *testing.T) {
	const n = 200_000
	for _, c := range []struct {
		d          dist
		mean       time.Duration // the distribution's true mean
		lo, hi     time.Duration // every draw within
		loMax      time.Duration // the least draw at most this (the range is used)
		hiMin      time.Duration // the greatest draw at least this
		wantZero   bool
		wantString string
	}{
		{d: fixed(2 * ms), mean: 2 * ms, lo: 2 * ms, hi: 2 * ms, loMax: 2 * ms, hiMin: 2 * ms, wantString: "2ms"},
		{d: uniform{lo: ms, hi: 3 * ms}, mean: 2 * ms, lo: ms, hi: 3 * ms, loMax: ms + 10*time.Microsecond, hiMin: 3*ms - 10*time.Microsecond, wantString: "{uniform: [1ms, 3ms]}"},
		// An exponential's stddev is its mean; P(X > 10·mean) = e^-10, about
		// 9 draws in 200 000.
		{d: exponential{m: 2 * ms}, mean: 2 * ms, lo: 0, hi: time.Hour, loMax: 10 * time.Microsecond, hiMin: 20 * ms, wantString: "{exponential: 2ms}"},
		// Far from 0 the truncation does nothing.
		{d: normal{m: 10 * ms, sd: ms}, mean: 10 * ms, lo: 5 * ms, hi: 15 * ms, loMax: 7 * ms, hiMin: 13 * ms, wantString: "{normal: {mean: 10ms, stddev: 1ms}}"},
		// Truncated at its mean, a normal is half-normal: mean m + sd·√(2/π).
		{d: normal{m: 0, sd: ms}, mean: time.Duration(float64(ms) * math.Sqrt(2/math.Pi)), lo: 0, hi: 10 * ms, loMax: 10 * time.Microsecond, hiMin: 3 * ms, wantString: "{normal: {mean: 0s, stddev: 1ms}}"},
		{d: exponential{}, wantZero: true, wantString: "{exponential: 0s}"},
		{d: uniform{}, wantZero: true, wantString: "{uniform: [0s, 0s]}"},
	} {
		if got := c.d.String(); got != c.wantString {
			t.Errorf("String() = %q, want %q", got, c.wantString)
		}
		if c.d.zero() != c.wantZero {
			t.Errorf("%v: zero() = %v, want %v", c.d, c.d.zero(), c.wantZero)
		}
		if c.wantZero {
			continue
		}
		if got := c.d.mean(); math.Abs(got-c.mean.Seconds()) > 1e-9 {
			t.Errorf("%v: mean() = %v, want %v", c.d, got, c.mean)
		}
		mean, lo, hi := sample(c.d, n)
		if math.Abs(mean-float64(c.mean)) > 0.01*float64(c.mean) {
			t.Errorf("%v: mean of %d draws %v, want %v ± 1%%", c.d, n, time.Duration(mean), c.mean)
		}
		if lo < c.lo || hi > c.hi || lo > c.loMax || hi < c.hiMin {
			t.Errorf("%v: draws in [%v, %v], want within [%v, %v], reaching below %v and above %v", c.d, lo, hi, c.lo, c.hi, c.loMax, c.hiMin)
		}
	}
}

// TestTruncatedNormalMean checks mean() against draws where truncation
// matters: mean 1 ms, stddev 1 ms loses the 16 % of draws below 0, which
// moves the mean up to 1 ms + φ(1)/Φ(1) ms ≈ 1.2876 ms.
func TestTruncatedNormalMean(t *testing.T) {
	d := normal{m: ms, sd: ms}
	want := 1.0 + math.Exp(-0.5)/math.Sqrt(2*math.Pi)/(1-0.5*math.Erfc(1/math.Sqrt2))
	if got := d.mean() * 1e3; math.Abs(got-want) > 1e-6 {
		t.Errorf("mean() = %.6f ms, want %.6f ms", got, want)
	}
	mean, lo, _ := sample(d, 200_000)
	if math.Abs(mean/float64(ms)-want) > 0.01*want || lo < 0 {
		t.Errorf("draws: mean %.4f ms, least %v; want %.4f ms ± 1%%, none below 0", mean/float64(ms), lo, want)
	}
}

// TestJitteredMean: the bounds take a jittered step at its mean, which is
// the step itself while the jitter is at most twice the step, and longer
// once the draws below zero are counted as zero; it agrees with the
// average of a million draws.
func TestJitteredMean(t *testing.T) {
	for _, c := range []struct{ d, jitter time.Duration }{
		{ms, 0}, {ms, 500 * time.Microsecond}, {ms, 2 * ms}, {ms, 4 * ms}, {0, ms}, {ms, 10 * ms},
	} {
		st := jittered{c.d, c.jitter}
		mean := st.mean()
		if c.jitter <= 2*c.d && mean != c.d.Seconds() {
			t.Errorf("step %v, jitter %v: mean %v, want the step", c.d, c.jitter, mean)
		}
		avg, _, _ := sample(st, 1<<20)
		if avg /= 1e9; math.Abs(avg-mean) > 0.005*mean {
			t.Errorf("step %v, jitter %v: mean %v, draws average %v", c.d, c.jitter, mean, avg)
		}
	}
}
