package lessons_test

import (
	"fmt"

	"github.com/brewput/brewput/lessons"
)

// A claim's rule decides on the 95 % interval of its figure: wholly on the
// claim's side, wholly off it, or across its threshold.
func ExampleRule_Decide() {
	scales := lessons.AtLeast(1.7) // ideal on 2 CPUs: ×2 within 15 %
	fmt.Println(scales.Decide(1.96, 2.00))
	fmt.Println(scales.Decide(1.02, 1.10))
	fmt.Println(scales.Decide(1.55, 1.98))
	near := lessons.Between(360, 440) // a median near 400 ms
	fmt.Println(near.Decide(398, 405), near)
	// Output:
	// reproduced
	// not reproduced
	// inconclusive
	// reproduced 360 to 440
}

// Select picks claims by name or by group, the seed's short name.
func ExampleSelect() {
	claims, err := lessons.Select(lessons.Claims(2), []string{"workloads", "talk/overload"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range claims {
		fmt.Println(c.Name, c.CPUs, c.Rule)
	}
	// Output:
	// talk/overload [2] 360 to 440
	// workloads/find-1cpu [1] ≥ 2.00
	// workloads/add-1cpu [1] ≤ 1.00
	// workloads/add-more-cpus [2] ≥ 1.20
	// workloads/sort-no-gain [2] ≤ 1.05
}
