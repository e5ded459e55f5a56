package lessons_test

import (
	"fmt"

	"github.com/brewput/brewput/lab/lessons"
)

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
	// workloads/find-1cpu [1] ≥ 5.92
	// workloads/add-1cpu [1] ≤ 0.92
	// workloads/add-more-cpus [2] ≥ 1.32
	// workloads/sort-no-gain [2] ≤ 1.05
}
