package host

import (
	"bufio"
	"os"
	"runtime"
	"strings"

	"github.com/brewput/brewput/results"
)

// Detect describes this machine.
func Detect() results.Host {
	name, _ := os.Hostname()
	model, cores := cpuInfo()
	return results.Host{
		Name:      name,
		CPUModel:  model,
		Cores:     cores,
		GoVersion: runtime.Version(),
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
	}
}

// cpuInfo reads the CPU's marketing name and the number of logical CPUs
// from /proc/cpuinfo, where there is one. The count is the machine's, not
// this process's: runtime.NumCPU shrinks with the affinity a sweep sets.
func cpuInfo() (model string, cores int) {
	model, cores = "unknown", runtime.NumCPU()
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return model, cores
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		switch key = strings.TrimSpace(key); {
		case !ok:
		case key == "processor":
			n++
		case key == "model name" && model == "unknown":
			model = strings.TrimSpace(val)
		}
	}
	if n > 0 {
		cores = n
	}
	return model, cores
}
