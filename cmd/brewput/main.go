// Command brewput measures how the structure of a concurrent Go program
// (locks, channels, pipelines, buffers, replicas) shapes its throughput,
// latency, contention and CPU use, on a coffee shop: see brewput --help.
package main

import (
	"os"

	"github.com/brewput/brewput/cmd/brewput/internal/driver"
)

func main() { os.Exit(driver.Main()) }
