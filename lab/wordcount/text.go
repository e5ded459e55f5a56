package wordcount

import (
	"bytes"
	"math/rand/v2"
	"strings"
)

// vocabulary is what the generated text is made of: common English words,
// the most common first, and a few of the sea.
const vocabulary = "the of and a to in that his it he was with as but is for all " +
	"this at by from not on so be him one you had have there or now were " +
	"which upon like me my they their some what when into no more than out " +
	"then old man would been only over its such any these great long time " +
	"whale ship sea boat captain deck sail water head side crew harpoon " +
	"line round way though still night come down here see white after " +
	"those last far away before thing through while ever against hand " +
	"between strange voyage island wind storm mast rope oil"

// Text returns size bytes of English-looking ASCII prose, the same for every
// call with the same size: words from a fixed vocabulary, the common ones
// more often, some capitalized or followed by punctuation; lines of 6 to 14
// words with now and then a double space or a tab between words; and a
// blank line between paragraphs. It is what the lab counts when no file is
// given. Text(n) is the start of Text(m) for n < m, so its last word may be
// cut short.
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
