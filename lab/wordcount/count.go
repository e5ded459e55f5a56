package wordcount

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// isSpace reports whether b separates words: the six ASCII white-space
// characters, as wc -w counts in the C locale.
func isSpace(b byte) bool { return b < utf8.RuneSelf && unicode.IsSpace(rune(b)) }

// Words counts the words of text: the reference every count is checked
// against.
func Words(text []byte) int {
	words, inWord := 0, false
	for _, b := range text {
		switch {
		case isSpace(b):
			inWord = false
		case !inWord:
			words++
			inWord = true
		}
	}
	return words
}

// countWords counts the words of r one byte per Read call. Unless reuse
// is set, every read gets a buffer of its own, which escapes to the heap
// through the interface: an allocation per byte, as in the talk.
//
//go:noinline
func countWords(r io.Reader, reuse bool) (words, n int64, err error) {
	buf := make([]byte, 1)
	inWord := false
	for {
		if !reuse {
			buf = make([]byte, 1)
		}
		k, err := r.Read(buf)
		if k == 1 {
			n++
			switch {
			case isSpace(buf[0]):
				inWord = false
			case !inWord:
				words++
				inWord = true
			}
		}
		if err == io.EOF {
			return words, n, nil
		}
		if err != nil {
			return words, n, err
		}
	}
}

// The three ways to count the words of the file at path: bytewise makes a
// system call per byte; buffered reads through a bufio.Reader, still with
// a buffer allocated per byte; reused reads into one buffer.
func countBytewise(path string) (words, n int64, err error) { return countFile(path, false, false) }
func countBuffered(path string) (words, n int64, err error) { return countFile(path, true, false) }
func countReused(path string) (words, n int64, err error)   { return countFile(path, true, true) }

func countFile(path string, buffered, reuse bool) (words, n int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var r io.Reader = f
	if buffered {
		r = bufio.NewReader(f)
	}
	return countWords(r, reuse)
}

// vocabulary is what the generated text is made of, the most common first.
const vocabulary = "the of and a to in that his it he was with as but is for all " +
	"this at by from not on so be him one you had have there or now were " +
	"which upon like me my they their some what when into no more than out " +
	"then old man would been only over its such any these great long time " +
	"whale ship sea boat captain deck sail water head side crew harpoon " +
	"line round way though still night come down here see white after " +
	"those last far away before thing through while ever against hand " +
	"between strange voyage island wind storm mast rope oil"

// Text returns size bytes of English-looking ASCII prose, the same at
// every call, with punctuation, tabs, double spaces and blank lines.
// Text(n) begins Text(m) for n < m.
func Text(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	r := rand.New(rand.NewPCG(6, 4))
	vocab := strings.Fields(vocabulary)
	var b bytes.Buffer
	b.Grow(size + 200)
	for b.Len() < size {
		words := 6 + r.IntN(9)
		for w := range words {
			if w > 0 {
				switch r.IntN(40) {
				case 0:
					b.WriteString("  ")
				case 1:
					b.WriteByte('\t')
				default:
					b.WriteByte(' ')
				}
			}
			word := vocab[min(r.IntN(len(vocab)), r.IntN(len(vocab)))] // skewed to the front
			if r.IntN(12) == 0 {
				b.WriteByte(word[0] - ('a' - 'A'))
				word = word[1:]
			}
			b.WriteString(word)
			if r.IntN(8) == 0 {
				b.WriteByte(",.;:!?-"[r.IntN(7)])
			}
		}
		b.WriteByte('\n')
		if r.IntN(8) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()[:size]
}

// wcWords runs wc -w on the file at path, in the C locale so that it
// counts as Words does, and returns its count and CPU time.
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
