// Command quietprobe tells whether the machine was left alone: how many
// CPUs' worth of time other processes used (internal/quiet). With no
// arguments it probes for one second and prints the figure; with a
// command, it runs the command (its output passes through) and prints to
// stderr "others N" for the time the command ran — the command and its
// children are not "others" — exiting with the command's status. Scripts
// use it to say whether a measurement was quiet, and to retry one that
// was not.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/brewput/brewput/internal/quiet"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Printf("%.2f\n", quiet.Probe(time.Second))
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	before := quiet.Take()
	err := cmd.Run()
	fmt.Fprintf(os.Stderr, "others %.2f\n", quiet.Since(before))
	if err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			os.Exit(exit.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "quietprobe:", err)
		os.Exit(1)
	}
}
