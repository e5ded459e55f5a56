package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestSayPoints: the playground's engine hands the page each point of
// brewput model's JSON with the words report/text says of it: its limit,
// its verdict, its recommended change, each relief tried, each reason a
// number passes its bound; the schema's line passes as it is.
func TestSayPoints(t *testing.T) {
	t.Parallel()
	out, _ := succeeds(t, noChild(), "model", "--sched", "fifo", "--modes", "locking,parsteam", "--cpus", "1,2", "--format", "json")
	// A recorded open loop, served faster than its Poisson arrivals' rate.
	open, err := os.ReadFile(filepath.Join("testdata", "consistency", "cafe-poisson-fifo.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, point, _ := strings.Cut(string(open), "\n")
	out += point
	points, err := results.ReadJSON(strings.NewReader(out))
	if err != nil || len(points) != 5 {
		t.Fatalf("%d points, %v", len(points), err)
	}
	lines := strings.Split(strings.TrimSpace(string(modelcli.SayPoints([]byte(out)))), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], `"brewput"`) || strings.Contains(lines[0], `"said"`) {
		t.Fatalf("%d lines, the first %q", len(lines), lines[0])
	}
	aboves := 0
	for i, p := range points {
		var said struct {
			Bottleneck struct {
				Said struct {
					Limit, Text string
					Recommend   []string
				}
				Profile []struct{ Said string }
			}
			Trust struct{ Above []struct{ Said string } }
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &said); err != nil {
			t.Fatal(err)
		}
		b, s := p.Bottleneck, said.Bottleneck
		if s.Said.Limit != text.BottleneckName(b) || s.Said.Text != text.BottleneckText(p) || (len(s.Said.Recommend) == 0) != (len(b.Tier) == 0 && b.Combined == nil) ||
			len(s.Profile) != len(b.Experiments) || s.Profile[0].Said != text.ChangeText(b.Experiments[0]) {
			t.Errorf("%s on %d CPUs: said %+v", p.Mode, p.CPUs, s)
		}
		for j, a := range said.Trust.Above {
			aboves++
			if a.Said != text.AboveText(p, p.Above[j]) {
				t.Errorf("%s on %d CPUs: above %q, want %q", p.Mode, p.CPUs, a.Said, text.AboveText(p, p.Above[j]))
			}
		}
	}
	if aboves == 0 {
		t.Error("no point passes a bound: the reasons' words are not checked")
	}
}
