package host

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	for in, want := range map[string]string{"1": "[1]", "1,2": "[1 2]", "1-4": "[1 2 3 4]", "2,1-3": "[1 2 3]", " 1 , 3 ": "[1 3]"} {
		got, err := ParseCPUList(in, 4)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("ParseCPUList(%q, 4) = %v, %v; want %s", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"0": "0 CPUs: want at least 1", "5": "5 CPUs: this machine has 4", "1-9": "9 CPUs: this machine has 4",
		"x": `"x" is not a CPU count`, "3-1": `"3-1" is not`, "": `"" is not`, "1,,2": `"" is not`,
	} {
		_, err := ParseCPUList(in, 4)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCPUList(%q, 4) error = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestCheckCPUs(t *testing.T) {
	if err := CheckCPUs([]int{1, 64}); err != nil {
		t.Errorf("CheckCPUs(1, 64) = %v; a count above the machine's is GOMAXPROCS, allowed", err)
	}
	for _, cpus := range [][]int{nil, {0}, {1, -2}} {
		if err := CheckCPUs(cpus); err == nil || !strings.HasPrefix(err.Error(), "cpus") {
			t.Errorf("CheckCPUs(%v) = %v; want an error naming cpus", cpus, err)
		}
	}
}

func TestDetect(t *testing.T) {
	h := Detect()
	if h.Cores < 1 || h.GoVersion != runtime.Version() || h.OS != runtime.GOOS || h.Arch != runtime.GOARCH || h.CPUModel == "" {
		t.Errorf("Detect() = %+v", h)
	}
}

// Doubling is the counts doubling from one, the most the machine's own.
func TestDoubling(t *testing.T) {
	for max, want := range map[int]string{1: "1", 2: "1,2", 4: "1,2,4", 6: "1,2,4,6", 16: "1,2,4,8,16", 20: "1,2,4,8,16,20"} {
		got := Doubling(max)
		if got != want {
			t.Errorf("Doubling(%d) = %q, want %q", max, got, want)
		}
		if cpus, err := ParseCPUList(got, max); err != nil || cpus[len(cpus)-1] != max {
			t.Errorf("Doubling(%d) read back as %v, %v", max, cpus, err)
		}
	}
}
