package curves

import (
	"math"
	"slices"

	"github.com/brewput/brewput/results"
)

// CarryFactor is how far past the most CPUs a machine's curves were
// measured on Carry carries them: sixteen times (256 CPUs from a 16-CPU
// machine's).
const CarryFactor = 16

// Carry is c with each cell carried past the most CPUs it was measured
// on, top, to each count of Counts(to) past it, at most CarryFactor×top.
// A cell's time an operation on n CPUs, against one CPU's, is read off
// its counts from top/2 up as two costs: a serial time no more CPUs
// shorten (a lock's hold and handoff, a shared line's move) and work each
// CPU does apart (Amdahl's law), which is the point. Its band spans that
// serial time growing with each contender as it grew over those counts
// (the Universal Scalability Law's coherency: a handoff or a line's move
// slower for each waiter) and, but for work alone (Alloc), the curve
// staying where it ended (the serial time already all there is), which
// part the more the farther past top; and the repeats' spread on top.
func (c *Curves) Carry(to int) *Curves {
	out := *c
	out.Points = slices.Clone(c.Points)
	byCell := map[Cell]map[int][]float64{}
	var cells []Cell
	for _, p := range c.Points {
		if byCell[p.Cell] == nil {
			byCell[p.Cell] = map[int][]float64{}
			cells = append(cells, p.Cell)
		}
		if len(p.Rates) > 0 {
			byCell[p.Cell][p.CPUs] = p.Rates
		}
	}
	reach := min(to, CarryFactor*c.MaxCPUs())
	for _, cell := range cells {
		at := byCell[cell]
		one := results.Median(at[1])
		if !(one > 0) {
			continue
		}
		speedups := map[int]float64{}
		top := 1
		for n, rates := range at {
			speedups[n], top = results.Median(rates)/one, max(top, n)
		}
		if top < 2 || !(speedups[top] > 0) {
			continue
		}
		least, most := slices.Min(at[top])/results.Median(at[top]), slices.Max(at[top])/results.Median(at[top])
		amdahl, usl := fitCosts(speedups, top)
		for _, n := range Counts(reach) {
			if n <= top {
				continue
			}
			readings := []float64{speedups[top] * amdahl(n) / amdahl(top), speedups[top] * usl(n) / usl(top)}
			if cell.Shape != Alloc { // work alone has no lock or line of its own to stay at
				readings = append(readings, speedups[top])
			}
			mid := readings[0]
			lo, hi := slices.Min(readings)*least, slices.Max(readings)*most
			out.Points = append(out.Points, Point{Cell: cell, CPUs: n, Rates: []float64{one * lo, one * mid, one * hi}, Carried: true})
		}
	}
	return &out
}

// fitCosts fits a cell's time an operation against one CPU's, 1/S(n), on
// its counts from top/2 up (the top two at least, one CPU's among them
// where no other) as a + b/n (Amdahl's law: serial time and work each CPU
// does apart), and as a + b/n + c·n (the Universal Scalability Law's, c
// the time each contender adds), none of them below zero; it returns each
// fit's speed-up on n.
func fitCosts(speedups map[int]float64, top int) (amdahl, usl func(n int) float64) {
	var counts []int
	for n := range speedups {
		counts = append(counts, n)
	}
	slices.Sort(counts)
	window := slices.DeleteFunc(slices.Clone(counts), func(n int) bool { return n == 1 || 2*n < top })
	if len(window) < 2 {
		window = counts[max(0, len(counts)-2):]
	}
	terms := []func(n float64) float64{
		func(float64) float64 { return 1 },
		func(n float64) float64 { return 1 / n },
		func(n float64) float64 { return n },
	}
	fit := func(k int) func(n int) float64 {
		rows := make([][]float64, len(window))
		y := make([]float64, len(window))
		for i, n := range window {
			for _, t := range terms[:k] {
				rows[i] = append(rows[i], t(float64(n)))
			}
			y[i] = 1 / speedups[n]
		}
		x := nonNegative(rows, y)
		return func(n int) float64 {
			var t float64
			for j, f := range terms[:k] {
				t += x[j] * f(float64(n))
			}
			if !(t > 0) {
				return math.Inf(1) // no time an operation: the fit says nothing
			}
			return 1 / t
		}
	}
	return guard(fit(2)), guard(fit(3))
}

// guard is f, or a curve that stays flat where f says nothing finite.
func guard(f func(n int) float64) func(n int) float64 {
	return func(n int) float64 {
		if v := f(n); !math.IsInf(v, 0) && v > 0 {
			return v
		}
		return 1
	}
}

// nonNegative is the least-squares x ≥ 0 of rows·x = y, for a few
// columns: the best of the unconstrained fits over every subset of them
// whose coefficients are all at least zero.
func nonNegative(rows [][]float64, y []float64) []float64 {
	k := len(rows[0])
	best, bestErr := make([]float64, k), math.Inf(1)
	for set := 1; set < 1<<k; set++ {
		var cols []int
		for j := range k {
			if set&(1<<j) != 0 {
				cols = append(cols, j)
			}
		}
		sol, ok := solveNormal(rows, y, cols)
		if !ok || slices.ContainsFunc(sol, func(v float64) bool { return v < 0 }) {
			continue
		}
		x := make([]float64, k)
		for i, j := range cols {
			x[j] = sol[i]
		}
		var sq float64
		for i, row := range rows {
			r := -y[i]
			for j, v := range row {
				r += v * x[j]
			}
			sq += r * r
		}
		if sq < bestErr {
			best, bestErr = x, sq
		}
	}
	return best
}

// solveNormal solves the normal equations of rows·x = y over cols, by
// Gaussian elimination; false where they are singular.
func solveNormal(rows [][]float64, y []float64, cols []int) ([]float64, bool) {
	k := len(cols)
	m := make([][]float64, k)
	for a := range k {
		m[a] = make([]float64, k+1)
		for i, row := range rows {
			for b := range k {
				m[a][b] += row[cols[a]] * row[cols[b]]
			}
			m[a][k] += row[cols[a]] * y[i]
		}
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return nil, false
		}
		m[c], m[p] = m[p], m[c]
		for r := range k {
			if r != c {
				f := m[r][c] / m[c][c]
				for j := c; j <= k; j++ {
					m[r][j] -= f * m[c][j]
				}
			}
		}
	}
	x := make([]float64, k)
	for i := range k {
		x[i] = m[i][k] / m[i][i]
	}
	return x, true
}
