package coffee_test

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
)

// Open a shop in one mode, brew a latte, and read its machines' meters.
func ExampleOpenVariant() {
	mode, err := coffee.ParseMode("multi-2")
	if err != nil {
		fmt.Println(err)
		return
	}
	shop, err := coffee.OpenVariant(mode, coffee.DefaultSteps(), coffee.Variant{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer shop.Close()
	shop.Brew()
	for _, m := range shop.Meters() {
		fmt.Println(m.Name(), m.Read().Uses)
	}
	// Output:
	// grinder#1 1
	// grinder#2 0
	// espresso#1 1
	// espresso#2 0
	// steamer#1 1
	// steamer#2 0
}

func ExampleParseMode() {
	_, err := coffee.ParseMode("multi-0")
	fmt.Println(err)
	// Output: mode "multi-0": N (copies of each machine) must be a whole number ≥ 1, e.g. multi-2
}
