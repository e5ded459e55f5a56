//go:build !js

package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/brewput/brewput/results"
)

// Runner measures each point in a fresh child process (RunChild): no
// heap, goroutines or warm caches carried over from the previous point.
// The child is the program at Path, called with Args, which serves one
// point (ServeChild), as brewput's hidden "point" command does.
type Runner struct {
	Path string
	Args []string
	// Env is added to the child's environment.
	Env []string
}

// Run measures one point. When ctx is cancelled the child is killed and
// ctx's error returned.
func (r Runner) Run(ctx context.Context, s Spec) (results.Point, error) {
	if err := s.Validate(); err != nil {
		return results.Point{}, err
	}
	p, err := RunChild(ctx, r.Path, r.Args, r.Env, s.CPUs, s)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("%s cpus=%d: %w", s.Mode, s.CPUs, err)
	}
	return p, err
}

// RunChild measures one point in a child process: the program at path,
// called with args and env added to this process's environment,
// restricted to cpus CPUs (affinity) with GOMAXPROCS set to match, in its
// own process group. It writes spec as JSON to the child's stdin and reads
// one results.Point as JSON from its stdout. When ctx is cancelled the
// child is killed and ctx's error returned; when the child fails, the
// error ends with the last line of its error output.
func RunChild(ctx context.Context, path string, args, env []string, cpus int, spec any) (results.Point, error) {
	in, err := json.Marshal(spec)
	if err != nil {
		return results.Point{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, fmt.Sprintf("GOMAXPROCS=%d", cpus))
	// Its own process group: a ^C at the terminal reaches the parent, which
	// keeps what it has and stops the child itself.
	ownGroup(cmd)
	if err := StartPinned(cmd, cpus); err != nil {
		return results.Point{}, fmt.Errorf("start: %w", err)
	}
	err = cmd.Wait()
	if ctx.Err() != nil {
		return results.Point{}, ctx.Err()
	}
	if err != nil {
		return results.Point{}, fmt.Errorf("%w: %s", err, lastLine(stderr.String()))
	}
	// The point is the last line: a user's code measured in the child
	// (package study) may have printed before it.
	var p results.Point
	if err := json.Unmarshal([]byte(lastLine(stdout.String())), &p); err != nil {
		return results.Point{}, fmt.Errorf("child wrote no point: %w", err)
	}
	return p, nil
}

// lastLine is the last line of a child's output: its point, or the part
// of its error output that says what went wrong.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "no error output"
	}
	return s
}

// ServeChild is the child's side of Runner: it reads a Spec from stdin,
// measures it, and writes the point to stdout.
func ServeChild(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	var s Spec
	dec := json.NewDecoder(stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return fmt.Errorf("read spec: %w", err)
	}
	p, err := Measure(ctx, s)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(p)
}
