package results

import "testing"

func TestSplitSite(t *testing.T) {
	for site, want := range map[string][3]string{
		"s.grinder.use(s.steps.grind()) in coffee.(*fineLocking).Brew at coffee/finelocking.go:25": {"s.grinder.use(s.steps.grind())", "coffee.(*fineLocking).Brew", "coffee/finelocking.go:25"},
		"for t := range in { in coffee.stage at coffee/pipeline.go:36":                             {"for t := range in {", "coffee.stage", "coffee/pipeline.go:36"},
		"x := at in y at z in w at harness/run.go:7":                                               {"x := at in y at z", "w", "harness/run.go:7"},
		"coffee.(*fineLocking).Brew at coffee/finelocking.go:25":                                   {"", "coffee.(*fineLocking).Brew", "coffee/finelocking.go:25"},
		"3 smaller sites, each under 0.5 % of the total":                                           {"3 smaller sites, each under 0.5 % of the total", "", ""},
		"look at this": {"look at this", "", ""},
	} {
		text, fn, loc := SplitSite(site)
		if [3]string{text, fn, loc} != want {
			t.Errorf("SplitSite(%q) = %q, %q, %q; want %q", site, text, fn, loc, want)
		}
	}
}
