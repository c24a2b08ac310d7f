package search

import (
	"regexp"
	"regexp/syntax"
)

// A regular expression that tests positions (^, $, \A, \z, \b, \B, with or
// without (?m)) and whose matches have a bounded, non-zero length is
// matched in pieces too: each assertion looks at most one byte either side
// of its position (Go's \b is ASCII), so a match is searched for with the
// byte before its earliest start consumed by a leading (?s:.) (ctxRe: the
// pattern then sees the text before it, and \A or ^ never holds there), and
// is decided only when the text after its latest end is in the window.

// assertLen returns the most bytes a match of expr can span, and ok, when
// expr holds an empty-width assertion, every match is bounded (as
// regexpMaxLen) and no match is empty.
func assertLen(expr string) (n int, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || !testsPosition(expr) {
		return 0, false
	}
	re = re.Simplify()
	if minLenOf(re) < 1 {
		return 0, false
	}
	n, ok = maxLenOf(re, true)
	if !ok || n <= 0 || n > maxStreamLen {
		return 0, false
	}
	return n, true
}

// minLenOf is the fewest bytes a match of re spans (a lower bound).
func minLenOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) // at least a byte a rune
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLenOf(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLenOf(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLenOf(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minLenOf(sub); n < 0 || m < n {
				n = m
			}
		}
		if n < 0 {
			return 0
		}
		return n
	}
	return 0
}

// ctxRegexp is expr after one consumed character: its match's group 1 is
// the pattern's match, seen with the text before it.
func ctxRegexp(expr string) *regexp.Regexp {
	re, err := regexp.Compile(`(?s:.)(` + expr + `)`)
	if err != nil {
		return nil
	}
	return re
}
