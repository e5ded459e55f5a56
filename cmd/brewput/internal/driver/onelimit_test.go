package driver

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestOneLimitOneName: a point's limit is decided once, by its causal
// profile, and every surface names it in the same words
// (report/text's BottleneckName of its facts): the JSON, the points table, the compact
// table the main job and report print, and the page's headings, map and
// schedule pictures. For a main job (multipipe-2 and parsteam measured on
// 1 CPU, the model's go policy on 1 to 8, where the surfaces used to name
// four different limits for multipipe-2 on 8), for the model alone on 6
// and 8 CPUs, and for a YAML system.
func TestOneLimitOneName(t *testing.T) {
	if race.Enabled {
		// Its main job runs under the detector in TestMainJobAndReport,
		// its model runs in package model's tests; here they took 32 s of
		// the race run's cmd/brewput/internal/driver, and what it asserts the plain run
		// checks.
		t.Skip("the limit's names checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	cal := fixedCalibration(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		// The main job: its terminal prints the compact table; brewput
		// report --format table of its results.json, every point.
		{"main job", []string{"--modes", "multipipe-2,parsteam", "--cpus", "1", "--dur", "60ms", "--warmup", "0s", "--noisy", "ok"}},
		{"shop", []string{"model", "--modes", "multipipe-2,parsteam", "--cpus", "6,8", "--calibration", cal}},
		// finelocking's limit on 4 CPUs and on 6–8 are of one class
		// (several machines), in other words.
		{"fifo", []string{"model", "--modes", "finelocking,multi-2", "--cpus", "1,2,4,6,8", "--sched", "fifo"}},
		{"yaml", []string{"model", "--model", "../../../../examples/cafe.yaml", "--cpus", "2,8", "--sched", "fifo"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var file, table, compact string
			if c.args[0] == "model" {
				file = filepath.Join(dir, "points.json")
				succeeds(t, noChild(), append(c.args, "--out", file)...)
				table, _ = succeeds(t, noChild(), append(c.args, "--format", "table")...)
				compact, _ = succeeds(t, noChild(), "report", file, "--out", filepath.Join(dir, "report"))
			} else {
				compact, _ = succeeds(t, selfChild(), append(c.args, "--out", filepath.Join(dir, "report"))...)
				file = filepath.Join(dir, "report", "results.json")
				table, _ = succeeds(t, noChild(), "report", file, "--format", "table", "--out", filepath.Join(dir, "again"))
			}
			points, err := results.ReadFile(file)
			if err != nil || len(points) == 0 {
				t.Fatalf("the JSON: %v, %d points", err, len(points))
			}
			if c.name == "main job" && !slices.ContainsFunc(points, func(p results.Point) bool { return !p.IsModel() }) {
				t.Fatal("the main job's results.json holds no measured point")
			}
			// The JSON has one key for a point's limit, its bottleneck:
			// what sets the ceiling is bounds.set_by (schema 2 called it
			// bounds.limit, and named the CPUs beside a bottleneck of the 2
			// grinders and the customers).
			if raw, err := os.ReadFile(file); err != nil || strings.Contains(string(raw), `"limit":`) {
				t.Errorf("the JSON (%v) has a key \"limit\" beside each point's bottleneck", err)
			}
			var names []string
			for _, p := range points {
				if p.Bottleneck == nil {
					t.Fatalf("%s on %d CPUs has no limit", p.Mode, p.CPUs)
				}
				if !slices.Contains(names, text.BottleneckName(p.Bottleneck)) {
					names = append(names, text.BottleneckName(p.Bottleneck))
				}
			}
			page, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			// The advice ("What if?") is the fifo policy's, a point of its
			// own, and says so.
			whatIf := regexp.MustCompile(`(?s)<h4>What if\?</h4>.*?</table>`)
			surfaces := map[string]string{"the points table": oneLine(table), "the compact table": oneLine(compact),
				"the page": oneLine(html.UnescapeString(whatIf.ReplaceAllString(string(page), "")))}
			for _, p := range points {
				for surface, said := range surfaces {
					if surface != "the compact table" && !strings.Contains(said, text.BottleneckName(p.Bottleneck)) {
						t.Errorf("%s does not name %s on %d CPUs's limit %q", surface, p.Mode, p.CPUs, text.BottleneckName(p.Bottleneck))
					}
				}
			}
			// The compact answer names a mode's limit once for the counts
			// it holds on (TestOneLimitAcrossTheRange), in the words of one
			// of its points there; the CPUs, where more help before
			// another limit, its figures show. Where the model predicts a
			// mode, its row's limits are the answer's.
			ranges := analyze.Answer(points, coffee.Declared{}).Ranges
			for _, r := range ranges {
				for _, row := range r.Rows {
					shown := r.Model || len(ranges) == 1
					for i, span := range row.Limits {
						if !slices.ContainsFunc(points, func(p results.Point) bool {
							return p.Mode == row.Mode && span.From <= p.CPUs && p.CPUs <= span.To && text.LimitName(span.Of) == text.BottleneckName(p.Bottleneck)
						}) {
							t.Errorf("the compact table says %s on %d–%d CPUs is limited by %q, the words of none of its points there", row.Mode, span.From, span.To, text.LimitName(span.Of))
						}
						if shown && !(i == 0 && span.Scales && len(row.Limits) > 1) && !strings.Contains(oneLine(compact), text.LimitName(span.Of)) {
							t.Errorf("the compact table does not name %s's limit %q", row.Mode, text.LimitName(span.Of))
						}
					}
				}
			}
			// Wherever a surface says what limits a point, it says it in
			// one of the points' words, and no other.
			limited := regexp.MustCompile(`[Ll]imited by `)
			for surface, said := range surfaces {
				for _, at := range limited.FindAllStringIndex(said, -1) {
					after := strings.TrimPrefix(said[at[1]:], "(best relief) ")
					after = strings.TrimPrefix(after, "(model's profile) ")
					if strings.HasPrefix(after, "source ") || strings.HasPrefix(said[at[1]-1:], " (model's profile); the best change") || slices.ContainsFunc(points, func(p results.Point) bool { return strings.HasPrefix(after, p.Mode+" ") }) {
						continue // a column's heading, the next heading or the first row after it
					}
					if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(after, n) }) {
						t.Errorf("%s says %q, none of the points' limits %q", surface, said[at[0]:min(len(said), at[1]+200)], names)
					}
				}
			}
		})
	}
}

// TestOneLimitOneNameInPlayground holds the playground to the same words:
// its table of what limits each point of the chosen mode's curve names
// every point's limit as brewput model's JSON does (BottleneckName), for
// the shop's multipipe-2 and parsteam on 1–8 CPUs under the go policy and
// for a YAML system under fifo; and the answer's words name the chosen
// point's. The playground's table said "the 2 grinders, the 2 steamers
// and the customers" where every other surface said "… together".
func TestOneLimitOneNameInPlayground(t *testing.T) {
	if race.Enabled {
		// Under the detector its simulations took 103 s of the race run (at load 11); they
		// are the model's, whose goroutines package model's tests run
		// under it, and what it asserts the plain run checks.
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	if testing.Short() {
		t.Skip("builds the WebAssembly engine")
	}
	endToEnd(t)
	testkit.Chromium(t)
	// Every command here is given its calibration (or the fifo policy,
	// which needs none), so none reads the user's config folder: beside
	// the other tests.
	t.Parallel()
	site, cal, _, _ := sharedPlayground(t)
	cafe, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "examples", "cafe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	page := chromium.Browser(t).Page(t, 1280, 900)
	// No modes compared beside the shop's (compare=): their curves are
	// not what is checked, and took a seventh of this test's CPU time.
	for i, c := range []struct {
		hash string
		cli  []string
	}{
		{"mode=multipipe-2&cpus=8&sched=go&compare=", []string{"--modes", "multipipe-2", "--calibration", cal}},
		{"mode=parsteam&cpus=8&sched=go&compare=", []string{"--modes", "parsteam", "--calibration", cal}},
		{"cpus=8&sched=fifo&model=" + base64URL(string(cafe)), []string{"--model", "../../../../examples/cafe.yaml", "--sched", "fifo"}},
	} {
		file := filepath.Join(t.TempDir(), "points.json")
		succeeds(t, noChild(), append(append([]string{"model"}, c.cli...), "--cpus", "1-8", "--out", file)...)
		points, err := results.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range points {
			want = append(want, text.BottleneckName(p.Bottleneck))
		}
		if i == 0 {
			err = chromedp.Do(page.Ctx, chromedp.Navigate("file://"+filepath.Join(site, "index.html")+"#"+c.hash))
		} else {
			_, err = chromedp.Run(page.Ctx, chromedp.Evaluate[int](fmt.Sprintf(`delete document.body.dataset.done; location.hash = %q; 0`, "#"+c.hash)))
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := page.Poll(`!!document.body.dataset.done`, 4*time.Minute); err != nil {
			t.Fatalf("#%.40s: the page did not finish: %v", c.hash, err)
		}
		got := evaluate[[]string](t, page, `[...document.querySelectorAll("#limits tbody tr td:nth-child(4)")].map((td) => td.textContent)`)
		if !slices.Equal(got, want) {
			t.Errorf("#%.40s: the playground names the limits of 1–8 CPUs\n%q\nbrewput model's JSON\n%q", c.hash, got, want)
		}
		// The answer's sentence says it as the CLI's does (Bottleneck.Text):
		// "The 2 grinders, … limit it together".
		because := strings.ToLower(evaluate[string](t, page, `document.getElementById("because").textContent`))
		named, together := strings.CutSuffix(want[len(want)-1], " together")
		if !strings.Contains(because, named+" limit") || together != strings.Contains(because, "limit it together") {
			t.Errorf("#%.40s: the answer's words %q do not name the point's limit, %q", c.hash, because, want[len(want)-1])
		}
	}
	if errs := page.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
