// Package prose writes the small pieces of English that brewput's verdicts
// and explanations share, so that every sentence lists and capitalizes the
// same way.
package prose

import "strings"

// JoinAnd joins "a, b and c": "" for none, the one for one.
func JoinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Capital writes s with its first byte in upper case; s should begin with
// an ASCII letter, as every sentence brewput writes does.
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
