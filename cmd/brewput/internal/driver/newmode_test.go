package driver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// TestNewMode follows docs/development.md's "How to add a mode": the
// recipe's declaration, put among coffee.Families() and nowhere else, makes
// a mode that brewput, built with it, lists, measures, models, profiles,
// draws in a report and offers in its playground, whose engine (in
// Chromium, where there is one) models it.
func TestNewMode(t *testing.T) {
	root, dir, declaration := recipeTest(t, "How to add a mode", "builds brewput and its playground's engine")
	overlay := overlayFamilies(t, root, dir, declaration)
	bin := filepath.Join(dir, "brewput")
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, "./cmd/brewput")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -overlay: %v\n%s", err, out)
	}
	brew := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		// In the module, whose source the playground's engine is built
		// from, with the overlay.
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-overlay="+overlay, "COLUMNS=200", "XDG_CONFIG_HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("brewput %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	if list := brew("list"); !strings.Contains(list, "\nparmulti-N ") {
		t.Errorf("brewput list has no parmulti-N:\n%s", list)
	}
	measured, modelled := filepath.Join(dir, "measured.json"), filepath.Join(dir, "modelled.json")
	brew("run", "--modes", "parmulti-2", "--cpus", "1", "--dur", "100ms", "--warmup", "0s", "--noisy", "ok", "--out", measured)
	brew("model", "--modes", "parmulti-2", "--cpus", "1,4", "--sched", "fifo", "--out", modelled)
	for file, want := range map[string]int{measured: 1, modelled: 2} {
		points, err := results.ReadFile(file)
		if err != nil || len(points) != want {
			t.Fatalf("%s: %d points, %v; want %d", file, len(points), err, want)
		}
		for _, p := range points {
			// A measured point on one CPU that other processes took for
			// its window may finish no drink; it must say it was disturbed.
			made := p.Throughput > 0 || file == measured && p.IsDisturbed()
			if p.Mode != "parmulti-2" || !made || len(p.Machines()) != 6 {
				t.Errorf("%s: %s makes %.0f a second on %d machines (disturbed: %v); want parmulti-2's drinks on 6",
					file, p.Mode, p.Throughput, len(p.Machines()), p.IsDisturbed())
			}
		}
	}
	// Its causal profile relieves the machines it holds, and advise tries
	// the neighbour it declares.
	// The text shows only changes that gain; the JSON lists every one tried,
	// typed, and report/text says each.
	var advice analysis.Advice
	if err := json.Unmarshal([]byte(brew("advise", "--mode", "parmulti-2", "--cpus", "4", "--sched", "fifo", "--format", "json")), &advice); err != nil {
		t.Fatal(err)
	}
	var tried []string
	for _, o := range advice.Options {
		tried = append(tried, text.OptionChange(o))
		for _, s := range o.Becomes {
			tried = append(tried, s.Of)
		}
	}
	for _, want := range []string{"one more grinder (2 → 3)", "another copy of each machine", "parmulti-3"} {
		if !slices.Contains(tried, want) {
			t.Errorf("brewput advise tried no %q: %q", want, tried)
		}
	}
	report := filepath.Join(dir, "report")
	brew("report", measured, modelled, "--out", report)
	page, err := os.ReadFile(filepath.Join(report, "index.html"))
	if err != nil || !strings.Contains(string(page), "parmulti-2") {
		t.Errorf("the report's page does not show parmulti-2: %v", err)
	}
	charts, _ := filepath.Glob(filepath.Join(report, "*.svg"))
	drawn := 0
	for _, c := range charts {
		if b, err := os.ReadFile(c); err == nil && strings.Contains(string(b), "parmulti-2") {
			drawn++
		}
	}
	if drawn == 0 {
		t.Errorf("no chart of the report's %d draws parmulti-2", len(charts))
	}

	site, cal := filepath.Join(dir, "site"), filepath.Join(dir, "cal.json")
	if err := saveFixedCalibration(cal); err != nil {
		t.Fatal(err)
	}
	brew("playground", "--out", site, "--calibration", cal)
	offered := playgroundModes(t, filepath.Join(site, "index.html"))
	if !strings.Contains(offered, `"name":"parmulti"`) || !strings.Contains(offered, `"parmulti-2"`) {
		t.Errorf("the playground does not list parmulti and offer parmulti-2: %.300s…", offered)
	}
	t.Run("browser", func(t *testing.T) {
		testkit.Chromium(t)
		page := chromium.Browser(t).Page(t, 1280, 1600)
		url := "file://" + filepath.Join(site, "index.html") + "#mode=parmulti-2&cpus=4&sched=fifo"
		if err := chromedp.Do(page.Ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		if err := page.Poll(`!!document.body.dataset.done`, 2*time.Minute); err != nil {
			t.Fatalf("the playground did not finish parmulti-2: %v", err)
		}
		got, err := chromedp.Run(page.Ctx, chromedp.Evaluate[[]string](`[document.body.dataset.done, document.getElementById("headline").textContent,
			[...document.querySelectorAll("#compare input")].map((i) => i.value).join(",")]`))
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != "ok" || !strings.HasPrefix(got[1], "parmulti-2 on 4 CPUs") || !slices.Contains(strings.Split(got[2], ","), "parmulti-2") {
			t.Errorf("the playground on parmulti-2 ends %q with headline %q, offering %s to compare", got[0], got[1], got[2])
		}
		if errs := page.Errors(); len(errs) > 0 {
			t.Errorf("the page logged errors: %v", errs)
		}
	})
}

// recipeBlock is the first Go block of file's section "## " + section.
func recipeBlock(t *testing.T, file, section string) string {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, text, _ := strings.Cut(string(doc), "\n## "+section+"\n")
	text, _, _ = strings.Cut(text, "\n## ")
	_, block, ok := strings.Cut(text, "\n```go\n")
	block, _, closed := strings.Cut(block, "\n```\n")
	if !ok || !closed {
		t.Fatalf("%s has no Go block under ## %s", file, section)
	}
	return block
}

// overlayFamilies writes into dir coffee/families.go with decl added to
// the families' list, and an overlay that reads it in its place; it
// returns the overlay's path.
func overlayFamilies(t *testing.T, root, dir, decl string) string {
	t.Helper()
	families := filepath.Join(root, "coffee", "families.go")
	src, err := os.ReadFile(families)
	if err != nil {
		t.Fatal(err)
	}
	before, after, ok := strings.Cut(string(src), "\t\t{Name: \"noop\",")
	if !ok {
		t.Fatalf("%s: no noop family to add the recipe's before", families)
	}
	patched := filepath.Join(dir, "families.go")
	if err := os.WriteFile(patched, []byte(before+decl+"\n\t\t{Name: \"noop\","+after), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {families: patched}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// playgroundModes is the JSON of the modes a playground's page lists.
func playgroundModes(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	_, modes, _ := strings.Cut(string(b), `<script type="application/json" id="modes">`)
	modes, _, _ = strings.Cut(modes, "</script>")
	return modes
}
