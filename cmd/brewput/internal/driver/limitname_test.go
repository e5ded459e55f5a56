package driver

import (
	"context"
	"fmt"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestOneLimitNamePerPoint: over every mode of the model's default study
// on a few CPU counts, under either policy, each point's limit has one
// name on every surface that names it, the one report/text's LimitName
// says of its JSON's facts (resources and parts): the terminal's points
// table (brewput report --format table), the terminal's answer (its
// limit at the mode's most CPUs, where it gives the best change tried),
// the page's row and words for the point in its mode's section, and the
// page's table of each mode at its most CPUs. Issue 103 found multipipe-2
// named "the CPUs and the customers together" on the terminal and "the
// customers" on the page.
func TestOneLimitNamePerPoint(t *testing.T) {
	if race.Enabled {
		t.Skip("the surfaces' names checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	for _, c := range []struct{ name, sched, cpus, calibration string }{
		{"fifo", "fifo", "1,2,4,6,8", ""},
		// The issue's: on 8 CPUs multipipe-2's own profile names the
		// customers, its span from 1 CPU the CPUs and the customers.
		{"go, 2 cores beside others", "go", "1-8", filepath.Join("testdata", "calibration-2core-beside.json")},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "points.json")
			args := []string{"model", "--sched", c.sched, "--cpus", c.cpus, "--out", file}
			if c.calibration != "" {
				args = append(args, "--calibration", c.calibration)
			}
			succeeds(t, noChild(), args...)
			points, err := results.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			modes := map[string]bool{}
			for _, p := range points {
				modes[p.Mode] = true
			}
			for _, m := range strings.Split(modelcli.DefaultModes(), ",") {
				if !modes[m] {
					t.Fatalf("the model's default study has no point of %s", m)
				}
			}
			answer := wideOutput(t, "report", file, "--out", filepath.Join(dir, "report"))
			table := wideOutput(t, "report", file, "--format", "table", "--out", filepath.Join(dir, "again"))
			page, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			surfaces := map[string]map[point]string{
				"the terminal's points table": tableLimits(table),
				"the page's mode sections":    pageRowLimits(string(page)),
				"the page's table of modes":   pageModeLimits(string(page), points),
				"the page's mode summaries":   pageSummaryLimits(string(page), points),
			}
			words := pageWords(string(page))
			for _, p := range points {
				name := text.BottleneckName(p.Bottleneck)
				for _, part := range p.Bottleneck.Parts {
					if !strings.Contains(name, text.PartName(part)) {
						t.Errorf("%s on %d CPUs: its limit %q does not name its JSON's %s", p.Mode, p.CPUs, name, part.Key)
					}
				}
				at := point{p.Mode, p.CPUs}
				for surface, named := range surfaces {
					if got, ok := named[at]; ok && got != name {
						t.Errorf("%s names %s on %d CPUs's limit %q; its JSON %q", surface, p.Mode, p.CPUs, got, name)
					}
				}
				for _, surface := range []string{"the terminal's points table", "the page's mode sections"} {
					if _, ok := surfaces[surface][at]; !ok {
						t.Errorf("%s does not name %s on %d CPUs's limit", surface, p.Mode, p.CPUs)
					}
				}
				if w := words[at]; !strings.HasPrefix(strings.ToLower(w), strings.ToLower(strings.TrimSuffix(name, " together"))) && !strings.Contains(w, "bind together") {
					t.Errorf("the page's words for %s on %d CPUs, %q, do not begin with its limit %q", p.Mode, p.CPUs, w, name)
				}
			}
			says := pageSummaries(string(page))
			for _, err := range answerSays(answer, says) {
				t.Error(err)
			}
			for _, surface := range []string{"the page's table of modes", "the page's mode summaries"} {
				if len(surfaces[surface]) < len(modes) {
					t.Errorf("%s names the limit of %d modes' points, want each of the %d modes' at its most CPUs", surface, len(surfaces[surface]), len(modes))
				}
			}
		})
	}
}

// point is a mode on a CPU count.
type point struct {
	mode string
	cpus int
}

// wideOutput is what brewput args print, each line whole.
func wideOutput(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut := syncBuffer{columns: unwrapped}, syncBuffer{columns: unwrapped}
	if code := runEnv(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, child: noChild()}); code != exitOK {
		t.Fatalf("brewput %q: exit %d; stderr:\n%s", args, code, errOut.String())
	}
	return out.String()
}

// gain is a points table's or answer's gain after a limit: " +50%", " +7.6 %".
var gain = regexp.MustCompile(` [+-][0-9.]+ ?%$`)

// tableLimits are the limits of the points table's rows, in its column
// "limited by (best relief)" after its gain is taken off.
func tableLimits(table string) map[point]string {
	out := map[point]string{}
	split := regexp.MustCompile(`\s{2,}`)
	column := -1
	for _, line := range strings.Split(table, "\n") {
		cells := split.Split(strings.TrimSpace(line), -1)
		if i := slices.Index(cells, "limited by (best relief)"); i >= 0 {
			column = i
			continue
		}
		n, err := 0, error(nil)
		if len(cells) > 1 {
			n, err = strconv.Atoi(cells[1])
		}
		if column < 0 || len(cells) <= column || err != nil {
			continue
		}
		out[point{cells[0], n}] = gain.ReplaceAllString(cells[column], "")
	}
	return out
}

// answerSays checks the terminal answer's table of what limits each mode
// against says, what the page's summary of each mode says, the best
// change's count left out (the terminal says it once, in the heading):
// each group of modes the table lays out beside one text says what the
// page says of each of them.
func answerSays(answer string, says map[string]string) []error {
	_, table, _ := strings.Cut(answer, "limited by; the best change on ")
	_, table, _ = strings.Cut(table, "\n")
	type row struct{ name, text string }
	var rows []row
	for _, line := range strings.Split(table, "\n") {
		name, text, _ := strings.Cut(line, "  ")
		if _, mode := says[strings.TrimSpace(name)]; strings.TrimSpace(line) == "" || !mode && !strings.HasPrefix(line, " ") {
			break // the table's end: a line after it
		}
		rows = append(rows, row{strings.TrimSpace(name), strings.TrimSpace(text)})
	}
	var errs []error
	seen := 0
	for i := 0; i < len(rows); {
		first := rows[i]
		want, ok := says[first.name]
		if !ok || first.text == "" {
			return append(errs, fmt.Errorf("the terminal's answer has a row %q where a mode and its limit begin", first.name+"  "+first.text))
		}
		want = oneLine(regexp.MustCompile(` on \d+ CPUs?$`).ReplaceAllString(want, ""))
		got := ""
		for ; i < len(rows) && len(oneLine(got)) < len(want); i++ {
			got += " " + rows[i].text
			if n := rows[i].name; n != "" {
				seen++
				if w, ok := says[n]; !ok || oneLine(regexp.MustCompile(` on \d+ CPUs?$`).ReplaceAllString(w, "")) != want {
					errs = append(errs, fmt.Errorf("the terminal's answer says of %s %q, the page %q", n, want, w))
				}
			}
		}
		for ; i < len(rows) && rows[i].text == ""; i++ { // more modes that say the same
			seen++
			if w := says[rows[i].name]; oneLine(regexp.MustCompile(` on \d+ CPUs?$`).ReplaceAllString(w, "")) != want {
				errs = append(errs, fmt.Errorf("the terminal's answer says of %s %q, the page %q", rows[i].name, want, w))
			}
		}
		if oneLine(got) != want {
			errs = append(errs, fmt.Errorf("the terminal's answer says of %s %q, the page %q", first.name, oneLine(got), want))
		}
	}
	if seen != len(says) {
		errs = append(errs, fmt.Errorf("the terminal's answer names %d modes' limits, the page %d", seen, len(says)))
	}
	return errs
}

// lastSpan is the name of the last of a mode's limits, "A on 1–3 CPUs, B
// from 4 CPUs; its best change +9.8 %": B.
func lastSpan(limits string) string {
	limits, _, _ = strings.Cut(strings.TrimSpace(limits), "; ")
	spans := strings.Split(limits, " CPUs, ")
	return regexp.MustCompile(` (from|on) [0-9–]+ CPUs?$`).ReplaceAllString(spans[len(spans)-1], "")
}

// pageSummaries are what each mode's section of the page says of it in
// its summary: what limits it over its counts, and its best change.
func pageSummaries(page string) map[string]string {
	out := map[string]string{}
	summary := regexp.MustCompile(`<summary><strong>([^<]+)</strong>: ([^<]*)</summary>`)
	for _, s := range summary.FindAllStringSubmatch(page, -1) {
		out[s[1]] = html.UnescapeString(s[2])
	}
	return out
}

// pageSummaryLimits are the limits each mode's summary gives at its most
// CPUs, where it gives its best change.
func pageSummaryLimits(page string, points []results.Point) map[point]string {
	out := map[point]string{}
	most := mostCPUs(points)
	for mode, says := range pageSummaries(page) {
		if n, ok := most[mode]; ok {
			out[point{mode, n}] = lastSpan(says)
		}
	}
	return out
}

// pageRowLimits are the limits of the rows of the page's mode sections'
// tables: source, CPUs, throughput, limited by.
func pageRowLimits(page string) map[point]string {
	out := map[point]string{}
	section := regexp.MustCompile(`(?s)<details class="mode" id="mode-([^"]+)">.*?</details>`)
	row := regexp.MustCompile(`<tr(?: class="bymodel")?><td class="text">[^<]*</td><td>(\d+)</td><td>[^<]*</td><td class="text wrap">([^<]*)</td>`)
	for _, s := range section.FindAllStringSubmatch(page, -1) {
		for _, r := range row.FindAllStringSubmatch(s[0], -1) {
			n, _ := strconv.Atoi(r[1])
			out[point{s[1], n}] = html.UnescapeString(r[2])
		}
	}
	return out
}

// pageWords are the words the page's mode sections give each point.
func pageWords(page string) map[point]string {
	out := map[point]string{}
	section := regexp.MustCompile(`(?s)<details class="mode" id="mode-([^"]+)">.*?</details>`)
	item := regexp.MustCompile(`<li(?: class="bymodel")?><strong>(\d+) CPUs, [^<]*:</strong> ([^<]*)</li>`)
	for _, s := range section.FindAllStringSubmatch(page, -1) {
		for _, it := range item.FindAllStringSubmatch(s[0], -1) {
			n, _ := strconv.Atoi(it[1])
			out[point{s[1], n}] = html.UnescapeString(it[2])
		}
	}
	return out
}

// pageModeLimits are the limits the page's table of each mode at its most
// CPUs gives, a row holding the modes alike.
func pageModeLimits(page string, points []results.Point) map[point]string {
	out := map[point]string{}
	most := mostCPUs(points)
	row := regexp.MustCompile(`<td class="text wrap mode">(.*?)</td>.*?<td class="text wrap limit"><span class="cardlabel">limited by</span> ([^<]*)</td>`)
	tags := regexp.MustCompile(`<a [^>]*>[^<]*</a>|<[^>]+>`)
	for _, r := range row.FindAllStringSubmatch(page, -1) {
		for _, mode := range strings.Split(tags.ReplaceAllString(r[1], ""), ",") {
			mode = strings.TrimSpace(mode)
			// "(from 4 CPUs)": the count from which its class holds.
			limit := regexp.MustCompile(` \(from \d+ CPUs\)$`).ReplaceAllString(html.UnescapeString(r[2]), "")
			if n, ok := most[mode]; ok && !slices.Contains([]string{"", "-"}, limit) {
				out[point{mode, n}] = limit
			}
		}
	}
	return out
}

// mostCPUs is each mode's most CPUs among points.
func mostCPUs(points []results.Point) map[string]int {
	most := map[string]int{}
	for _, p := range points {
		most[p.Mode] = max(most[p.Mode], p.CPUs)
	}
	return most
}
