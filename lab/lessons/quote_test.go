package lessons

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// sharedDir finds the shared/ folder beside the repository (or above it)
// that holds the seeds, walking up from the test's folder; "" if none.
func sharedDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, "shared", "seeds")); err == nil && info.IsDir() {
			return filepath.Join(dir, "shared")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// quoted are the seed's words in a claim's SeedFigure, between “ and ”.
var quoted = regexp.MustCompile(`“([^”]*)”`)

// plain is text as quotes are compared: lower case, typographic
// apostrophes and dashes made plain, spaces collapsed.
func plain(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'", "–", "-", "—", "-", "\u00a0", " ").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

// TestQuotesInSeeds: every claim quotes its seed, and every quote, each
// piece of it apart (split at …) in order, is in the seed's text as the
// seed wrote it (or in the file under shared/ it names).
func TestQuotesInSeeds(t *testing.T) {
	shared := sharedDir()
	if shared == "" {
		t.Skip("no shared/seeds folder above the repository: the seeds' texts are not here to check the quotes against")
	}
	texts := map[string]string{}
	for _, c := range Claims(max(runtime.NumCPU(), 8)) {
		source := filepath.Join("seeds", c.Seed)
		if c.QuoteFrom != "" {
			source = c.QuoteFrom
		}
		text, ok := texts[source]
		if !ok {
			data, err := os.ReadFile(filepath.Join(shared, source))
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			text = plain(string(data))
			texts[source] = text
		}
		quotes := quoted.FindAllStringSubmatch(c.SeedFigure, -1)
		if len(quotes) == 0 {
			t.Errorf("%s: its seed figure %q quotes nothing of %s", c.Name, c.SeedFigure, source)
		}
		for _, q := range quotes {
			at := 0
			for _, piece := range strings.Split(q[1], "…") {
				piece = plain(piece)
				i := strings.Index(text[at:], piece)
				if i < 0 {
					t.Errorf("%s: %q is not in %s (after what the quote found before it)", c.Name, piece, source)
					break
				}
				at += i + len(piece)
			}
		}
	}
}
