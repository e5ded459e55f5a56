package driver

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
)

// TestNoGoIdentifierInWords: the words brewput gives, in the terminal,
// the page and the JSON's text, name no Go identifier of its own (a
// table's note said "0.2 results.CPU of the results.CPUs"): for a run of
// the main job with every point disturbed (readmeRun), as its answer,
// its table of every point and its page; and for the model's points and
// advice in JSON. TestEveryCommandFitsEighty holds every command's own
// output to the same.
func TestNoGoIdentifierInWords(t *testing.T) {
	if race.Enabled {
		t.Skip("rendered words checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	dir := t.TempDir()
	cal := fixedCalibration(t)
	texts := map[string]string{}
	answer, _, answerDir := reportOf(t, readmeRun)
	texts["the answer"] = answer
	texts["the table of every point"], _ = succeeds(t, noChild(), "report", readmeRun, "--format", "table", "--out", filepath.Join(dir, "table"))
	page, err := os.ReadFile(filepath.Join(answerDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	texts["the page"] = pageText(string(page))
	points, _ := succeeds(t, noChild(), "model", "--modes", "parsteam,multipipe-2", "--cpus", "1,8", "--format", "json", "--calibration", cal)
	advice, _ := succeeds(t, noChild(), "advise", "--mode", "multipipe-2", "--cpus", "8", "--format", "json", "--calibration", cal)
	for name, lines := range map[string]string{"the model's JSON": points, "advise's JSON": advice} {
		var words []string
		dec := json.NewDecoder(strings.NewReader(lines))
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			words = append(words, stringsOf(v)...)
		}
		texts[name] = strings.Join(words, "\n")
	}
	if !strings.Contains(texts["the table of every point"], "* disturbed") {
		t.Fatalf("the table of every point has no note on disturbed points:\n%s", texts["the table of every point"])
	}
	for name, text := range texts {
		if len(text) < 100 {
			t.Errorf("%s: %q, too little to check", name, text)
		}
		for _, id := range goIdentifiers(text) {
			t.Errorf("%s names %q, a Go identifier of brewput's", name, id)
		}
	}
}

// pageText is a page's text: its scripts, styles and tags left out.
func pageText(page string) string {
	code := regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`)
	tag := regexp.MustCompile(`(?s)<[^>]*>`)
	return html.UnescapeString(tag.ReplaceAllString(code.ReplaceAllString(page, " "), " "))
}

// stringsOf are the strings a decoded JSON value holds.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e)...)
		}
		return out
	}
	return nil
}
