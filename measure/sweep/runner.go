//go:build !js

package sweep

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/brewput/brewput/results"
)

// Runner measures each point in a fresh child process, the program at
// Path called with Args (which serves a point: ServeChild), Env added to
// its environment: no heap or warm caches carried over between points.
type Runner[S Spec[S]] struct {
	Path      string
	Args, Env []string
}

// Run measures one point in a child process (RunChild).
func (r Runner[S]) Run(ctx context.Context, s S) (results.Point, error) {
	if err := s.Validate(); err != nil {
		return results.Point{}, err
	}
	e := s.Entry()
	p, err := RunChild(ctx, r.Path, r.Args, r.Env, e.Load.CPUs, TimeLimit(s.Duration()), s)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("%s cpus=%d: %w", e.Name, e.Load.CPUs, err)
	}
	return p, err
}

// TimeLimit is how long a child measuring a point for about d may take
// before it is killed: three times d, and a minute to start and write.
func TimeLimit(d time.Duration) time.Duration { return 3*d + time.Minute }

// RunChild measures one point in a child process, the program at path with
// args and env, in its own process group, restricted to cpus CPUs with
// GOMAXPROCS to match: spec goes to its stdin as JSON, the point comes
// back on its stdout. The child is killed when ctx ends, and as a failure
// when it has not answered within limit.
func RunChild(ctx context.Context, path string, args, env []string, cpus int, limit time.Duration, spec any) (results.Point, error) {
	in, err := json.Marshal(spec)
	if err != nil {
		return results.Point{}, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, fmt.Sprintf("GOMAXPROCS=%d", cpus))
	OwnGroup(cmd) // a ^C reaches the parent, which keeps what it has and stops the child
	if err := StartPinned(cmd, cpus); err != nil {
		if parent.Err() == nil && ctx.Err() != nil {
			return results.Point{}, fmt.Errorf("not started within %v, its time limit", limit)
		}
		return results.Point{}, fmt.Errorf("start: %w", err)
	}
	err = cmd.Wait()
	if parent.Err() != nil {
		return results.Point{}, parent.Err()
	}
	if ctx.Err() != nil {
		return results.Point{}, fmt.Errorf("no point within %v, its time limit: the child was killed", limit)
	}
	if err != nil {
		return results.Point{}, fmt.Errorf("%w: %s", err, lastLine(stderr.String()))
	}
	// The point is the last line: a user's code (package study) may print.
	var p results.Point
	if err := json.Unmarshal([]byte(lastLine(stdout.String())), &p); err != nil {
		return results.Point{}, fmt.Errorf("child wrote no point: %w", err)
	}
	return p, nil
}

// StartPinned starts cmd restricted to the first n of this process's CPUs
// (StartOn; where they cannot be pinned, GOMAXPROCS alone limits them).
func StartPinned(cmd *exec.Cmd, n int) error {
	cpus, err := PinTo(n, nil)
	if err != nil {
		return err
	}
	return StartOn(cmd, cpus)
}

// lastLine is the last line of a child's output: its point, or its error.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return cmp.Or(s, "no error output")
}

// ServeChild is the child's side of Runner: a point's spec in, measured
// by measure, its point out.
func ServeChild[S any](ctx context.Context, stdin io.Reader, stdout io.Writer, measure func(context.Context, S) (results.Point, error)) error {
	var s S
	dec := json.NewDecoder(stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return fmt.Errorf("read spec: %w", err)
	}
	ctx, stop := WhileParentLives(ctx) // a killed brewput's child stops too
	defer stop()
	p, err := measure(ctx, s)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(p)
}
