// Package playground builds brewput's playground: a static site that runs
// brewput model in the browser, its engine (./engine: the CLI's model and
// schedule commands, modelcli, without the rest of the CLI) built for
// js/wasm, so that the page's answers are the CLI's.
package playground

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/report/palette"
)

// Module is brewput's module path, whose source the engine is built from.
const Module = "github.com/brewput/brewput"

// Engine is the engine's package, built for js/wasm.
const Engine = "./cmd/brewput/internal/driver/playground/engine"

// Budget is the most bytes the site's files may hold together, all of
// which a browser downloads before the first answer: on a phone over a
// mobile network, more is a wait. cmd/brewput built whole for js/wasm made
// them 7.2 MB.
const Budget = 3_000_000

// Site is what Build wrote: its folder, the engine's bytes and gzipped,
// and the bytes of all its files, which a browser downloads.
type Site struct {
	Dir                          string
	Engine, Compressed, Download int
}

// Options say how to build the site: from brewput's Source (SourceDir),
// with a calibration file's bytes, named CalibrationName on the page.
type Options struct {
	Source, CalibrationName string
	Calibration             []byte
}

// Build builds the engine and writes the site into dir, whole or not at all.
func Build(ctx context.Context, dir string, opt Options) (Site, error) {
	staging := atomicfile.StagingDir(dir)
	if err := os.RemoveAll(staging); err != nil {
		return Site{}, err
	}
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return Site{}, err
	}
	defer os.RemoveAll(staging)
	wasm, err := buildEngine(ctx, opt.Source, staging)
	if err != nil {
		return Site{}, err
	}
	loader, err := wasmExec(ctx)
	if err != nil {
		return Site{}, err
	}
	worker, err1 := assets.ReadFile("site/worker.js")
	app, err2 := assets.ReadFile("site/app.js")
	example, err3 := os.ReadFile(filepath.Join(opt.Source, "examples", "cafe.yaml"))
	if err := errors.Join(err1, err2, err3); err != nil {
		return Site{}, err
	}
	var engine bytes.Buffer
	engine.WriteString("// The playground's engine: brewput model built for WebAssembly, and Go's loader for it.\n")
	engine.WriteString("globalThis.brewputEngine = {\n  worker: ")
	enc := json.NewEncoder(&engine)
	enc.SetEscapeHTML(false)
	enc.Encode(string(worker) + "\n" + loader)
	engine.Truncate(engine.Len() - 1) // the encoder's newline
	// Gzipped, a quarter of the size; the page inflates it.
	packed := gzipped(wasm)
	fmt.Fprintf(&engine, ",\n  wasmGzip: %q\n};\n", base64.StdEncoding.EncodeToString(packed))
	index, err := page(opt.CalibrationName, opt.Calibration, string(example))
	if err != nil {
		return Site{}, err
	}
	files := map[string][]byte{"index.html": index, "app.js": app, "engine.js": engine.Bytes(), "calibration.json": opt.Calibration}
	download := 0
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(staging, name), b, 0o644); err != nil {
			return Site{}, err
		}
		download += len(b)
	}
	if err := os.Remove(filepath.Join(staging, "engine.wasm")); err != nil {
		return Site{}, err
	}
	if err := atomicfile.ReplaceDir(staging, dir, func(string) bool { return false }); err != nil {
		return Site{}, err
	}
	return Site{Dir: dir, Engine: len(wasm), Compressed: len(packed), Download: download}, nil
}

// buildEngine builds Engine in src for js/wasm into dir.
func buildEngine(ctx context.Context, src, dir string) ([]byte, error) {
	out := filepath.Join(dir, "engine.wasm")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, Engine)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWASM=satconv,signext", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("build the engine in %s (GOOS=js GOARCH=wasm go build %s): %v\n%s", src, Engine, err, strings.TrimSpace(string(msg)))
	}
	return os.ReadFile(out)
}

// wasmExec is the loader of the toolchain that built the engine.
func wasmExec(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("find the Go toolchain (go env GOROOT): %w", err)
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err == nil {
			return string(b), nil
		}
	}
	return "", fmt.Errorf("no wasm_exec.js in the Go toolchain at %s", root)
}

// SourceDir finds brewput's source: this folder's module, if it is
// brewput, else the module cache's copy of this program's version.
func SourceDir(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", Module)
	if out, err := cmd.Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); dir != "" {
			return dir, nil
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == Module && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		out, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
		if err == nil {
			dir := filepath.Join(strings.TrimSpace(string(out)), Module+"@"+bi.Main.Version)
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir, nil
			}
		}
	}
	return "", errors.New("the playground's engine is built from brewput's source, which is not here: run it in a clone of " + Module + ", or after go install " + Module + "/cmd/brewput@latest")
}

// Modes are the shop's modes as the page lists them: each family, and the
// usual modes it offers, the talk's first.
type Modes struct {
	Families []Family `json:"families"`
	Talk     []string `json:"talk"`
	Offered  []string `json:"offered"`
}

// Family is one of the page's families of modes.
type Family struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Param   string `json:"param"`
	Races   bool   `json:"races"`
}

// ModesOffered are the modes the page lists.
func ModesOffered() Modes {
	var ms Modes
	var others []string
	for _, f := range coffee.Families() {
		if f.Shape.Holds == coffee.NoShop { // the harness's own cost, nothing to model
			continue
		}
		ms.Families = append(ms.Families, Family{f.Name, f.Summary, f.Param(), coffee.Mode{Family: f.Name}.Races()})
		for _, u := range f.Usual {
			name := coffee.Mode{Family: f.Name, N: u.N}.String()
			if u.Talk {
				ms.Talk = append(ms.Talk, name)
			} else {
				others = append(others, name)
			}
		}
	}
	ms.Offered = slices.Concat(ms.Talk, others)
	return ms
}

// colours are the report's palette as the page draws with it.
func colours() map[string]any {
	fixed := map[string]string{}
	for _, f := range coffee.Families() {
		for _, u := range f.Usual {
			m := coffee.Mode{Family: f.Name, N: u.N}.String()
			if i, ok := (coffee.Declared{}).Colour(m); ok {
				fixed[m] = palette.Hex(palette.Cycle()[i])
			}
		}
	}
	var cycle []string
	for _, c := range palette.Cycle() {
		cycle = append(cycle, palette.Hex(c))
	}
	steps := map[string]string{}
	for k, c := range palette.Steps() {
		steps[k] = palette.Hex(c)
	}
	return map[string]any{"fixed": fixed, "cycle": cycle, "steps": steps}
}

// assets are the site's hand-written files.
//
//go:embed site/*
var assets embed.FS

// page is the site's index.html, which app.js fills in; example is the
// YAML the editor starts with.
func page(calName string, calJSON []byte, example string) ([]byte, error) {
	t, err := template.ParseFS(assets, "site/index.html")
	if err != nil {
		return nil, err
	}
	data := map[string]any{"Calibration": calName, "CalibrationJSON": template.JS(calJSON)}
	// JSON, lest the editor show "talk&#39;s".
	for key, v := range map[string]any{"Modes": ModesOffered(), "Example": example, "Palette": colours()} {
		js, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		data[key] = template.JS(js)
	}
	var b bytes.Buffer
	err = t.Execute(&b, data)
	return b.Bytes(), err
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzip.BestCompression) // a valid level: no error
	w.Write(b)                                              // to memory: no error
	w.Close()
	return out.Bytes()
}

// Serve serves the site in dir on addr until ctx ends, telling where.
func Serve(ctx context.Context, dir, addr string, tell func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", addr, err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	tell("http://" + ln.Addr().String() + "/")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
