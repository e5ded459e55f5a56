package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestOneLimitOneName: a point's limit is decided once, by its causal
// profile, and every surface names it in the same words
// (results.Bottleneck.Words): the JSON, the points table, the compact
// table the main job and report print, and the page's headings, map and
// schedule pictures. For the shop's modes under the go policy (multipipe-2
// and parsteam on 6 and 8 CPUs, where the surfaces used to name four
// different limits) and for a YAML system.
func TestOneLimitOneName(t *testing.T) {
	t.Parallel()
	cal := fixedCalibration(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"shop", []string{"--modes", "multipipe-2,parsteam", "--cpus", "6,8", "--calibration", cal}},
		{"yaml", []string{"--model", "../../examples/cafe.yaml", "--cpus", "2,8", "--sched", "fifo"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "points.json")
			succeeds(t, noChild(), append(append([]string{"model"}, c.args...), "--out", file)...)
			points, err := results.ReadFile(file)
			if err != nil || len(points) == 0 {
				t.Fatalf("the JSON: %v, %d points", err, len(points))
			}
			var names []string
			for _, p := range points {
				if p.Bottleneck == nil {
					t.Fatalf("%s on %d CPUs has no limit", p.Mode, p.CPUs)
				}
				if !slices.Contains(names, p.Bottleneck.Words()) {
					names = append(names, p.Bottleneck.Words())
				}
			}
			table, _ := succeeds(t, noChild(), append(append([]string{"model"}, c.args...), "--format", "table")...)
			compact, _ := succeeds(t, noChild(), "report", file, "--out", filepath.Join(dir, "report"))
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
				for surface, text := range surfaces {
					if !strings.Contains(text, p.Bottleneck.Words()) {
						t.Errorf("%s does not name %s on %d CPUs's limit %q", surface, p.Mode, p.CPUs, p.Bottleneck.Words())
					}
				}
			}
			// Wherever a surface says what limits a point, it says it in
			// one of the points' words, and no other.
			limited := regexp.MustCompile(`[Ll]imited by `)
			for surface, text := range surfaces {
				for _, at := range limited.FindAllStringIndex(text, -1) {
					after := strings.TrimPrefix(text[at[1]:], "(best relief) ")
					after = strings.TrimPrefix(after, "(model's profile) ")
					if slices.ContainsFunc(points, func(p results.Point) bool { return strings.HasPrefix(after, p.Mode+" ") }) {
						continue // a column's heading, the first row after it
					}
					if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(after, n) }) {
						t.Errorf("%s says %q, none of the points' limits %q", surface, text[at[0]:min(len(text), at[1]+200)], names)
					}
				}
			}
		})
	}
}
