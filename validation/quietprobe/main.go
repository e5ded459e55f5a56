// Command quietprobe is a one-off probe, kept for the scripts that use it:
// it tells whether the machine was left alone, as the CPUs' worth of time
// that other processes (and the hypervisor, as steal) used. With no
// arguments it watches for one second and prints that figure. With a
// command it runs the command (its output passes through), then prints
// "others N" to stderr for the time the command ran, and exits with the
// command's status: the command and its children count as its own time,
// not as others'. model-vs-measured.sh uses it to measure a point only
// while the machine is quiet.
//
// It reads the kernel's accounting (/proc/stat and getrusage), so it works
// on Linux only; the figure is good to about a tenth of a CPU over a few
// hundred milliseconds, the kernel counting in 10 ms ticks.
//
//	go run ./quietprobe
//	go run ./quietprobe COMMAND [ARG...]
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		start := mustRead()
		time.Sleep(time.Second)
		fmt.Printf("%.2f\n", others(start, mustRead()))
		return
	}
	start := mustRead()
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run() // waits: the command's CPU time is in our children's
	fmt.Fprintf(os.Stderr, "others %.2f\n", others(start, mustRead()))
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "quietprobe:", err)
		os.Exit(1)
	}
}

// reading is the machine's CPU accounting at one moment.
type reading struct {
	at    time.Time
	cpus  int
	busy  time.Duration // all CPUs' non-idle time, steal included
	steal time.Duration // time the hypervisor gave to other machines
	own   time.Duration // this process's CPU time and its reaped children's
}

func mustRead() reading {
	r, err := read()
	if err != nil {
		fmt.Fprintln(os.Stderr, "quietprobe:", err)
		os.Exit(1)
	}
	return r
}

// others is how many CPUs' worth of time went to anything but this process
// and its children between a and b: other processes' busy time plus steal,
// each part kept between 0 and the machine's CPUs (a tick more or less over
// a short interval can read as more).
func others(a, b reading) float64 {
	wall := b.at.Sub(a.at)
	if wall <= 0 {
		return 0
	}
	steal := b.steal - a.steal
	rest := b.busy - a.busy - steal - (b.own - a.own)
	cpus := float64(max(b.cpus, 1))
	part := func(d time.Duration) float64 {
		return min(max(d.Seconds()/wall.Seconds(), 0), cpus)
	}
	return part(rest) + part(steal)
}
