// Command quietprobe prints how many CPUs' worth of time other processes
// used over one second (internal/quiet), so that a script can say whether
// the machine was quiet when it measured.
package main

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/quiet"
)

func main() {
	fmt.Printf("%.2f\n", quiet.Probe(time.Second))
}
