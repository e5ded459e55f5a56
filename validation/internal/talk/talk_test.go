package talk

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGroupSteps checks that each run gets its own ideal's step (its
// median over 4) and background (the CPUs ideal did not get), and that a
// configuration's runs are gathered in one point.
func TestGroupSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "varycpu.csv")
	data := "run,mode,par,maxprocs,dur,thru,p50,util\n" +
		"1,ideal,2,2,4s,500,4.0,190%\n" +
		"2,ideal,2,2,4s,490,4.4,200%\n" +
		"1,locking,2,2,4s,250,8,100%\n" +
		"2,locking,2,2,4s,240,8.5,100%\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadRuns(path, "varycpu")
	if err != nil {
		t.Fatal(err)
	}
	pts := Group(rows, false)
	if len(pts) != 2 || pts[1].Mode != "locking" || len(pts[1].Runs) != 2 {
		t.Fatalf("grouped %d points, want ideal's and locking's with two runs each", len(pts))
	}
	lock := pts[1]
	if lock.Steps[0] != time.Millisecond || lock.Steps[1] != 1100*time.Microsecond {
		t.Errorf("steps %v, want 1ms and 1.1ms (each run's ideal median ÷ 4)", lock.Steps)
	}
	if lock.Background[0] < 0.0999 || lock.Background[0] > 0.1001 || lock.Background[1] != 0 {
		t.Errorf("background %v, want 0.1 and 0 CPUs", lock.Background)
	}
	if b := RunsBand(lock, P50); b != [2]float64{8, 8.5} {
		t.Errorf("runs' p50 band %v, want [8 8.5]", b)
	}
	if nominal := Group(rows, true); nominal[1].Steps[1] != time.Millisecond {
		t.Errorf("nominal step %v, want 1ms", nominal[1].Steps[1])
	}

	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("run,mode,par,maxprocs,dur,thru,p50,util\n1,ideal,2,2,4s,x,4,100%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRuns(bad, "varycpu"); err == nil {
		t.Errorf("ReadRuns read a throughput of x")
	}
}

// TestDistance checks the distance outside a band, relative to its
// nearer edge, and overlap.
func TestDistance(t *testing.T) {
	b := [2]float64{100, 200}
	for _, c := range []struct{ x, want float64 }{{150, 0}, {100, 0}, {90, 0.1}, {220, 0.1}} {
		if got := Distance(c.x, b); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("Distance(%v, %v) = %v, want %v", c.x, b, got, c.want)
		}
	}
	if !Overlaps(b, [2]float64{200, 300}) || Overlaps(b, [2]float64{201, 300}) {
		t.Errorf("Overlaps wrong at the edge 200")
	}
}
