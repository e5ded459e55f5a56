package usl_test

import (
	"fmt"

	"github.com/brewput/brewput/explain/scaling/usl"
)

// Fit a shop whose throughput peaks and falls back: 250 lattes/s on one
// CPU, 5 % of the work serialized (σ) and a coherency cost between every
// pair of CPUs (κ = 0.005), rounded to whole lattes; Select takes the
// Universal Scalability Law. Amdahl's law, which cannot turn down, makes
// up for it with a larger serial fraction.
func ExampleSelect() {
	var obs []usl.Observation
	for n, x := range []float64{250, 472, 664, 826, 962, 1071, 1159, 1227, 1278, 1316, 1341, 1357, 1366, 1367, 1364, 1356} {
		obs = append(obs, usl.Observation{N: float64(n + 1), X: x})
	}
	m, err := usl.Select(obs, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: σ = %.3f, κ = %.4f, λ = %.0f, R² = %.4f\n", m.Law, m.Sigma, m.Kappa, m.Lambda, m.R2)
	if n, x, ok := m.Peak(); ok {
		fmt.Printf("peak: %.0f lattes/s at %.1f CPUs\n", x, n)
	}
	a, _ := usl.FitAmdahl(obs)
	fmt.Printf("Amdahl's serial fraction: %.3f\n", a.Sigma)

	_, err = usl.Select(obs[:2], 0)
	fmt.Println(err)
	// Output:
	// universal: σ = 0.050, κ = 0.0050, λ = 250, R² = 1.0000
	// peak: 1367 lattes/s at 13.8 CPUs
	// Amdahl's serial fraction: 0.166
	// too few points to fit: 2 distinct N (1, 2); a fit needs at least 3
}
