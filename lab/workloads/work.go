package workloads

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/brewput/brewput/lab"
)

// addInput returns the integers 0 … n-1, whose sum checks every run.
func addInput(n int) []int {
	numbers := make([]int, n)
	for i := range numbers {
		numbers[i] = i
	}
	return numbers
}

func addWant(n int) int { return n * (n - 1) / 2 }

func add(numbers []int) int {
	var v int
	for _, n := range numbers {
		v += n
	}
	return v
}

// addConcurrent sums a part per goroutine, each writing its own slot once.
func addConcurrent(goroutines int, numbers []int) int {
	partial := make([]int, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		lo, hi := lab.Part(len(numbers), goroutines, g)
		wg.Go(func() { partial[g] = add(numbers[lo:hi]) })
	}
	wg.Wait()
	return add(partial)
}

// sortInput returns n pseudo-random integers, and them sorted by the
// standard library, which a bubble sort must equal.
func sortInput(n int) (input, want []int) {
	r := rand.New(rand.NewPCG(6, 1))
	input = make([]int, n)
	for i := range input {
		input[i] = r.IntN(1 << 30)
	}
	want = slices.Clone(input)
	slices.Sort(want)
	return input, want
}

// bubbleSort sorts a in place. A step writes the min and max of two
// neighbours rather than branching, which mispredicted on random input and
// not on sorted runs would make halves then the whole faster than one sort
// even on one CPU (×1.3): time follows the comparisons, the lesson's cost.
func bubbleSort(a []int) {
	n := len(a)
	for pass := 0; pass < n; pass++ {
		swapped := false
		for j := 0; j+1 < n-pass; j++ {
			x, y := a[j], a[j+1]
			a[j], a[j+1] = min(x, y), max(x, y)
			swapped = swapped || x > y
		}
		if !swapped {
			return
		}
	}
}

// sortConcurrent bubble-sorts a part of a per goroutine, then the whole,
// which with two parts still takes ¾ of a plain sort's comparisons.
func sortConcurrent(goroutines int, a []int) {
	var wg sync.WaitGroup
	for g := range goroutines {
		lo, hi := lab.Part(len(a), goroutines, g)
		wg.Go(func() { bubbleSort(a[lo:hi]) })
	}
	wg.Wait()
	bubbleSort(a)
}

// document is one small RSS-like XML document, as the seed's find reads.
type document struct {
	XMLName xml.Name `xml:"rss"`
	Channel struct {
		Title string `xml:"title"`
		Items []item `xml:"item"`
	} `xml:"channel"`
}

type item struct {
	Title       string `xml:"title"`
	Description string `xml:"description"`
	Link        string `xml:"link"`
}

const vocabulary = "coffee latte espresso grind steam milk press cup queue barista " +
	"order channel worker mutex scheduler thread core cache disk wait " +
	"throughput latency the a of and to in with on"

// findInput makes n XML documents, topic in some items' descriptions, and
// counts those that mention it, which checks find's parsing too.
func findInput(n int, topic string) (docs [][]byte, want int, err error) {
	r := rand.New(rand.NewPCG(6, 3))
	vocab := strings.Fields(vocabulary)
	docs = make([][]byte, n)
	for i := range docs {
		var d document
		d.Channel.Title = fmt.Sprintf("feed %d", i)
		found := false
		for j := range 3 + r.IntN(4) {
			words := make([]string, 8+r.IntN(9))
			for k := range words {
				words[k] = vocab[r.IntN(len(vocab))]
			}
			if r.IntN(8) == 0 { // one item in 8: about half the documents mention it
				words[r.IntN(len(words))] = topic
			}
			it := item{
				Title:       fmt.Sprintf("item %d.%d", i, j),
				Description: strings.Join(words, " "),
				Link:        fmt.Sprintf("https://example.com/%d/%d", i, j),
			}
			found = found || strings.Contains(it.Description, topic)
			d.Channel.Items = append(d.Channel.Items, it)
		}
		if found {
			want++
		}
		if docs[i], err = xml.Marshal(d); err != nil {
			return nil, 0, fmt.Errorf("generate document %d: %w", i, err)
		}
	}
	return docs, want, nil
}

// read stands for reading a document from disk: a sleep, then the parse.
func read(doc []byte, wait time.Duration) ([]item, error) {
	if wait > 0 {
		time.Sleep(wait)
	}
	var d document
	err := xml.Unmarshal(doc, &d)
	return d.Channel.Items, err
}

func mentions(items []item, topic string) bool {
	return slices.ContainsFunc(items, func(it item) bool { return strings.Contains(it.Description, topic) })
}

// find counts the documents that mention topic: the IO-bound workload.
func find(topic string, docs [][]byte, wait time.Duration) (int, error) {
	found := 0
	for i, doc := range docs {
		items, err := read(doc, wait)
		if err != nil {
			return 0, fmt.Errorf("document %d: %w", i, err)
		}
		if mentions(items, topic) {
			found++
		}
	}
	return found, nil
}

// findConcurrent counts as find with a pool of workers, whose waits
// overlap even on one CPU.
func findConcurrent(workers int, topic string, docs [][]byte, wait time.Duration) (int, error) {
	ch := make(chan int, len(docs))
	for i := range docs {
		ch <- i
	}
	close(ch)
	counts := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			found := 0
			for i := range ch {
				items, err := read(docs[i], wait)
				if err != nil {
					errs[w] = cmp.Or(errs[w], fmt.Errorf("document %d: %w", i, err))
					continue // drain the channel all the same
				}
				if mentions(items, topic) {
					found++
				}
			}
			counts[w] = found
		})
	}
	wg.Wait()
	found := 0
	for w := range workers {
		if errs[w] != nil {
			return 0, errs[w]
		}
		found += counts[w]
	}
	return found, nil
}
