package driver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestNewLab follows docs/development.md's "How to add a lab": the
// recipe's package, put under lab/ with its line in lab/all and nothing
// else, in a build of brewput through an overlay; that brewput lists the
// lab, runs it with its own flags, refuses a bad one, and runs it in the
// main job's --labs, which gives it its section and chart in the report.
func TestNewLab(t *testing.T) {
	root, dir, src := recipeTest(t, "How to add a lab", "builds brewput with the recipe's lab")
	pkg := regexp.MustCompile(`(?m)^package (\w+)$`).FindStringSubmatch(src)
	if pkg == nil {
		t.Fatal("the recipe's block has no package clause")
	}
	name := pkg[1]
	all := filepath.Join(root, "lab", "all", "all.go")
	list, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	// lab/all's one line, and its import.
	patched := strings.Replace(string(list), "import (\n", "import (\n\t\"github.com/brewput/brewput/lab/"+name+"\"\n", 1)
	patched = strings.Replace(patched, "\n\t}\n}\n", "\n\t\t"+name+".NewLab(),\n\t}\n}\n", 1)
	if strings.Count(patched, name+".NewLab()") != 1 || !strings.Contains(patched, "/lab/"+name+"\"") {
		t.Fatalf("%s: no list of labs to add %s to", all, name)
	}
	overlay := writeOverlay(t, dir, map[string]string{
		filepath.Join(root, "lab", name, name+".go"): src,
		all: patched,
	})
	bin := filepath.Join(dir, "brewput")
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, "./cmd/brewput")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("brewput with the recipe's lab does not build: %v\n%s", err, out)
	}
	brew := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "COLUMNS=200", "XDG_CONFIG_HOME="+dir)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code < 0 {
			t.Fatalf("brewput %s: %v", strings.Join(args, " "), err)
		}
		return code, stdout.String(), stderr.String()
	}

	if code, stdout, _ := brew("lab", "list"); code != exitOK || !strings.Contains(stdout, "\ntiny       adds up integers\n") {
		t.Errorf("lab list: exit %d\n%s", code, stdout)
	}
	file := filepath.Join(dir, "tiny.json")
	code, _, stderr := brew("lab", "tiny", "--sizes", "10,100", "--cpus", "1", "--out", file)
	points, err := results.ReadFile(file)
	if code != exitOK || err != nil || len(points) != 2 || points[1].Metrics["sum"] != 4950 || !strings.Contains(stderr, "tiny cpus=1 100: ") {
		t.Fatalf("lab tiny: exit %d, %v, %d points; stderr:\n%s", code, err, len(points), stderr)
	}
	if code, _, stderr := brew("lab", "tiny", "--sizes", "0"); code != exitUsage || stderr != "brewput: --sizes [0]: want at least one positive size\n" {
		t.Errorf("lab tiny --sizes 0: exit %d, %q", code, stderr)
	}
	report := filepath.Join(dir, "report")
	if code, _, stderr := brew("--modes", "noop", "--cpus", "1", "--dur", "20ms", "--warmup", "0s", "--predict=false", "--labs", "tiny", "--out", report); code != exitOK {
		t.Fatalf("main job with --labs tiny: exit %d\n%s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(report, "index.html"))
	if err != nil || !strings.Contains(string(page), `id="lab-tiny"`) || !strings.Contains(string(page), "How fast each size adds up.") {
		t.Errorf("the page has no section for the tiny lab with its lesson: %v", err)
	}
	if _, err := os.Stat(filepath.Join(report, "lab-tiny.svg")); err != nil {
		t.Errorf("no chart of the tiny lab: %v", err)
	}
}

// writeOverlay writes each file's content into dir and an overlay that
// reads them in place of (or beside) the module's paths; it returns the
// overlay's path, for go build -overlay.
func writeOverlay(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	replace := map[string]string{}
	for path, content := range files {
		rel := strings.ReplaceAll(strings.Trim(path, string(filepath.Separator)), string(filepath.Separator), "_")
		backing := filepath.Join(dir, rel)
		if err := os.WriteFile(backing, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[path] = backing
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
