package wordcount

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// wcWords runs the wc program at wc, as wc -w, on the file at path, in the C
// locale so that it counts words byte by byte as Words does, and returns
// its count and the CPU time the wc process used.
func wcWords(ctx context.Context, wc, path string) (words int64, cpu time.Duration, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	cmd := exec.CommandContext(ctx, wc, "-w")
	cmd.Stdin = f // from standard input, so that wc prints the count alone
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		return 0, 0, fmt.Errorf("%s -w: %w: %s", wc, err, strings.TrimSpace(stderr.String()))
	}
	fields := strings.Fields(out.String())
	if len(fields) == 0 {
		return 0, 0, fmt.Errorf("%s -w printed nothing", wc)
	}
	words, err = strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("%s -w printed %q, not a count", wc, out.String())
	}
	return words, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}
