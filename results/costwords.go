package results

import (
	"cmp"
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/base/format"
)

// CostsWords says the three runtime costs that matter most for the shop's
// answers as a reader knows them: "this machine wakes a sleeping goroutine
// in about 21 µs, hands …". Whose names the machine, "" for this one.
func CostsWords(whose string, wake, mutexHandoff, chanHandoff time.Duration) string {
	about := func(d time.Duration) string {
		return "about " + format.Sig(float64(d)/float64(time.Microsecond), 2) + " µs"
	}
	return fmt.Sprintf("%s wakes a sleeping goroutine in %s, hands a locked mutex on in %s and a value over a channel in %s",
		cmp.Or(whose, "this machine"), about(wake), about(mutexHandoff), about(chanHandoff))
}
