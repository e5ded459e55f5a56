package wordcount_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/wordcount"
)

// The generated text is the same on every machine, and so is its count.
func ExampleText() {
	text := wordcount.Text(1_200_000)
	fmt.Println(len(text), "bytes,", wordcount.Words(text), "words")
	fmt.Printf("%s\n", text[:26])
	// Output:
	// 1200000 bytes, 264375 words
	// more be not for was. in is
}

// Run counts a small generated text each way on one CPU. Times vary; the
// counts and the allocations per run of the reused buffer do not.
func ExampleRun() {
	c := wordcount.DefaultConfig()
	c.Size, c.Reps = 10_000, 1
	points, err := wordcount.Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		if p.Variant() == "wc" {
			continue // only where wc is installed
		}
		fmt.Printf("%s: %.0f words in %d bytes\n", p.Variant(), p.Metrics["words"], p.Ops)
	}
	// Output:
	// bytewise: 2204 words in 10000 bytes
	// buffered: 2204 words in 10000 bytes
	// reused: 2204 words in 10000 bytes
}
