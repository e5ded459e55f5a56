package wordcount

import (
	"bufio"
	"io"
	"os"
	"unicode"
	"unicode/utf8"
)

// isSpace reports whether b separates words: the six ASCII white-space
// characters (space, \t, \n, \v, \f, \r), which is what wc -w counts as
// space in the C locale. Bytes from 0x80 up are never space here, whatever
// they spell; that is why a text's count is checked against wc's only when
// it is plain ASCII.
func isSpace(b byte) bool { return b < utf8.RuneSelf && unicode.IsSpace(rune(b)) }

// Words counts the words of text: the maximal runs of bytes that are not
// space, as wc -w counts them in the C locale. It is the reference every
// variant's count is checked against.
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

// countWords counts the words of r by reading it one byte per Read call,
// the state machine of Words fed one byte at a time. Unless reuse is set,
// every read gets a buffer of its own: a byte slice handed to an
// interface's method escapes to the heap, as the compiler cannot tell
// what Read does with it, so that is one allocation per byte, as in the
// talk's program. With reuse the one buffer serves every read.
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

// The three ways to count the words of the file at path.

// countBytewise makes one Read call on the file, one system call, per
// byte, and allocates a buffer for each.
func countBytewise(path string) (words, n int64, err error) { return countFile(path, false, false) }

// countBuffered reads the file through a bufio.Reader, which fills its
// 4 KiB buffer with one system call and hands the bytes out from memory;
// it still allocates a buffer per byte read.
func countBuffered(path string) (words, n int64, err error) { return countFile(path, true, false) }

// countReused reads through a bufio.Reader into one buffer for all reads:
// a handful of allocations per file instead of one per byte.
func countReused(path string) (words, n int64, err error) { return countFile(path, true, true) }

// countFile is countWords of the file at path, read through a
// bufio.Reader where buffered, with reuse as countWords takes it.
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
