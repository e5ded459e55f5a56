package lesson_test

import (
	"fmt"

	"github.com/brewput/brewput/results/lesson"
)

// A claim's rule decides on the 95 % interval of its figure: wholly on the
// claim's side, wholly off it, or across its threshold.
func ExampleRule_Decide() {
	scales := lesson.AtLeast(1.7) // ideal on 2 CPUs: ×2 within 15 %
	fmt.Println(scales.Decide(1.96, 2.00))
	fmt.Println(scales.Decide(1.02, 1.10))
	fmt.Println(scales.Decide(1.55, 1.98))
	near := lesson.Between(360, 440) // a median near 400 ms
	fmt.Println(near.Decide(398, 405), near)
	// Output:
	// reproduced
	// not reproduced
	// inconclusive
	// reproduced 360 to 440
}
