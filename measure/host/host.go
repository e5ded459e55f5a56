// Package host answers "what machine is this?": its description for the
// results (Detect), its memory, and the CPU counts a sweep or a lab may
// run on (ParseCPUList, CheckCPUs).
package host

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
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

// cpuInfo reads the CPU's name and the machine's logical CPUs from
// /proc/cpuinfo (runtime.NumCPU shrinks with a sweep's affinity).
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

// Memory is the memory this process may use: the machine's, or its
// control group's limit where lower; 0 where neither can be read.
func Memory() float64 {
	total := 0.0
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				var kb float64
				if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%g kB", &kb); err == nil {
					total = kb * 1024
				}
			}
		}
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64); err == nil && v > 0 && (total == 0 || v < total) {
			total = v
		}
	}
	return total
}

// MemoryBudget is how much memory a run may plan to take by default: half
// of Memory; 1 GB in a browser tab, well inside WebAssembly's 4 GB; 4 GB
// where Memory cannot be read.
func MemoryBudget() float64 {
	if runtime.GOOS == "js" {
		return 1 << 30
	}
	if m := Memory(); m > 0 {
		return m / 2
	}
	return 4 << 30
}
