package main

import (
	"bytes"
	"context"
	"syscall/js"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
)

// main registers brewputRun(["model", flags...]), a Promise of {stdout,
// stderr, code} as the command line gives them (and said, the points with
// report/text's words: modelcli.SayPoints), its files read from the
// page's in-memory file system, and waits for the page's calls.
func main() {
	js.Global().Set("brewputRun", js.FuncOf(func(_ js.Value, a []js.Value) any {
		args := make([]string, a[0].Length())
		for i := range args {
			args[i] = a[0].Index(i).String()
		}
		var start js.Func
		start = js.FuncOf(func(_ js.Value, p []js.Value) any {
			resolve := p[0]
			// Its own goroutine keeps the event loop, which timers
			// need, free.
			go func() {
				defer start.Release()
				var stdout, stderr pageText
				code := modelcli.Playground(context.Background(), args, &stdout, &stderr)
				r := js.Global().Get("Object").New()
				r.Set("stdout", stdout.String())
				r.Set("said", string(modelcli.SayPoints(stdout.Bytes()))) // the points with their words
				r.Set("stderr", stderr.String())
				r.Set("code", code)
				resolve.Invoke(r)
			}()
			return nil
		})
		return js.Global().Get("Promise").New(start)
	}))
	select {}
}

// pageText is what the page shows in an element that wraps its lines
// itself: written unwrapped (format.Width), as to a terminal too wide to
// wrap at.
type pageText struct{ bytes.Buffer }

func (*pageText) Columns() int { return 1 << 20 }
