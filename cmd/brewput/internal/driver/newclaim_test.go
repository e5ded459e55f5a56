package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/lesson"
)

// TestNewClaim follows docs/development.md's "How to add a claim": the
// recipe's entry, put last among the talk's model claims and nowhere
// else, through an overlay. lab/lessons's tests of every claim hold it
// (complete, named once, its quote in the seed where the seeds are at
// hand), and brewput built with it lists the claim, measures it, gives it
// its verdict (the model's exact figure: reproduced) and shows it in a
// report.
func TestNewClaim(t *testing.T) {
	root, dir, entry := recipeTest(t, "How to add a claim", "builds brewput with the recipe's claim")
	talk := filepath.Join(root, "lab", "lessons", "talk.go")
	src, err := os.ReadFile(talk)
	if err != nil {
		t.Fatal(err)
	}
	// The entry goes last in talkModelClaims' list, indented as it is.
	_, models, _ := strings.Cut(string(src), "\nfunc talkModelClaims() []Claim {")
	end := strings.Index(models, "\n\t}\n\tfor i := range claims {")
	if end < 0 {
		t.Fatalf("%s: no list of the talk's model claims", talk)
	}
	at := len(src) - len(models) + end + 1
	indented := "\t\t" + strings.ReplaceAll(strings.TrimSpace(entry), "\n", "\n\t\t") + "\n"
	overlay := writeOverlay(t, dir, map[string]string{talk: string(src[:at]) + indented + string(src[at:])})
	name := "talk/model-ideal"
	if !strings.Contains(entry, `Name: "`+name+`"`) {
		t.Fatalf("the recipe's claim is not %s", name)
	}

	// What lab/lessons asks of every claim, asked of it too.
	test := exec.Command("go", "test", "-overlay", overlay, "-count=1", "-run", "^(TestClaims|TestSelect|TestQuotesInSeeds)$", "-v", "./lab/lessons")
	test.Dir = root
	if out, err := test.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestClaims") {
		t.Fatalf("lab/lessons's tests with the recipe's claim: %v\n%s", err, out)
	} else if strings.Contains(string(out), "--- SKIP: TestQuotesInSeeds") {
		t.Log("the seeds are not at hand: the recipe's quote is not checked")
	}

	bin := filepath.Join(dir, "brewput")
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, "./cmd/brewput")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("brewput with the recipe's claim does not build: %v\n%s", err, out)
	}
	brew := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "COLUMNS=200", "XDG_CONFIG_HOME="+dir)
		out, err := cmd.CombinedOutput()
		code := cmd.ProcessState.ExitCode()
		if code < 0 {
			t.Fatalf("brewput %s: %v", strings.Join(args, " "), err)
		}
		return code, string(out)
	}
	if code, out := brew("lessons", "--only", "nonsense"); code != exitUsage || !strings.Contains(out, "talk/model-overload, "+name+", workloads/") {
		t.Errorf("brewput lessons does not list %s among the talk's claims: exit %d\n%s", name, code, out)
	}
	file := filepath.Join(dir, "lessons.json")
	if code, out := brew("lessons", "--only", name, "--format", "json", "--out", file); code != exitOK {
		t.Fatalf("brewput lessons --only %s: exit %d\n%s", name, code, out)
	}
	rs, err := lesson.ReadFile(file)
	if err != nil || len(rs) != 1 {
		t.Fatalf("%s: %d results, %v", file, len(rs), err)
	}
	checkVerdicts(t, rs)
	r := rs[0]
	if r.Claim != name || r.Verdict != lesson.Reproduced || !r.Model || r.Seed != "coffee-shop-simulation-talk.txt" || r.Figure.Median != 1500 {
		t.Errorf("%s: %s from %s, model %v, figure %s; want the model's 1500 lattes/s reproduced from the talk", r.Claim, r.Verdict, r.Seed, r.Model, text.LessonFigure(r))
	}
	report := filepath.Join(dir, "report")
	if code, out := brew("report", file, "--out", report); code != exitOK {
		t.Fatalf("brewput report %s: exit %d\n%s", file, code, out)
	}
	if page, err := os.ReadFile(filepath.Join(report, "index.html")); err != nil || !strings.Contains(string(page), name) {
		t.Errorf("the report's page does not show %s: %v", name, err)
	}
}
