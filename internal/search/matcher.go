// Package search finds a pattern in the text a person reads in a session
// (JSON-decoded), fast: a raw-byte prefilter picks the candidate lines of a
// file, only those are decoded (through the session's Texter capability),
// and the pattern is matched exactly on the decoded text. Files are searched
// in parallel.
package search

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Options say how a pattern is read.
type Options struct {
	// Regexp reads the pattern as a Go (RE2) regular expression; otherwise it
	// is a fixed string.
	Regexp bool
	// IgnoreCase matches letters of either case (Unicode simple folding, as
	// Go's (?i)).
	IgnoreCase bool
}

// Matcher matches one pattern on decoded text.
type Matcher struct {
	lit string         // fixed string, case-sensitive (re == nil)
	re  *regexp.Regexp // everything else
	pre *Prefilter
	// maxLen bounds a match's length in bytes, so the pattern can be
	// matched over a text read in pieces: a fixed string (with or without
	// -i), or a regular expression whose matches have a bounded length and
	// that tests no position (regexpMaxLen); 0 for any other.
	maxLen int
	// window, for a regular expression whose matches have no bounded
	// length but that tests no position (no ^, $, \A, \z, \b, \B), is
	// the length its matches are taken to have at most when a long line's
	// text is matched in pieces (maxStreamLen): a longer match there is
	// cut short or missed (see pieceLen). 0 for any other pattern.
	window int
	// ctxRe, for a bounded regular expression that tests positions
	// (assertLen), is it after one consumed character (ctxRegexp): it is
	// matched in pieces with that character's context; nil otherwise.
	ctxRe *regexp.Regexp
}

// pieceLen is the longest match matching in pieces allows for: maxLen, or
// window for an unbounded regular expression without assertions; 0 when
// the pattern cannot be matched in pieces (it tests positions and is
// unbounded, or may match empty).
func (m *Matcher) pieceLen() int {
	if m.maxLen > 0 {
		return m.maxLen
	}
	return m.window
}

// Compile reads pattern. An empty pattern is refused: it would match every
// text.
func Compile(pattern string, o Options) (*Matcher, error) {
	if pattern == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	if !utf8.ValidString(pattern) {
		return nil, fmt.Errorf("pattern is not valid UTF-8")
	}
	m := &Matcher{}
	if !o.Regexp {
		if o.IgnoreCase {
			m.re = regexp.MustCompile(foldFixed(pattern))
			m.maxLen = utf8.UTFMax * utf8.RuneCountInString(pattern)
		} else {
			m.maxLen = len(pattern)
			m.lit = pattern
		}
		m.pre = newPrefilter(pattern, o.IgnoreCase, false)
		return m, nil
	}
	expr := pattern
	if o.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if re.MatchString("") {
		return nil, fmt.Errorf("pattern %q matches the empty string, so it would match every text", pattern)
	}
	m.re = re
	if n, ok := regexpMaxLen(expr); ok {
		m.maxLen = n
	} else if !testsPosition(expr) {
		m.window = maxStreamLen
	} else if n, ok := assertLen(expr); ok {
		if m.ctxRe = ctxRegexp(expr); m.ctxRe != nil {
			m.maxLen = n
		}
	}
	if lit, fold, ok := requiredLiteral(expr); ok {
		m.pre = newPrefilter(lit, fold, true)
	}
	return m, nil
}

// Prefilter is the raw-byte prefilter, nil when the pattern has no literal
// that every match must contain (then every record is a candidate).
func (m *Matcher) Prefilter() *Prefilter { return m.pre }

// Find returns the byte spans of the non-overlapping matches in text, at
// most max of them (max <= 0: all), and how many there are in all.
func (m *Matcher) Find(text string, max int) (spans [][2]int, total int) {
	if m.re != nil {
		all := m.re.FindAllStringIndex(text, -1)
		for _, s := range all {
			if max <= 0 || len(spans) < max {
				spans = append(spans, [2]int{s[0], s[1]})
			}
		}
		return spans, len(all)
	}
	for off := 0; ; {
		i := strings.Index(text[off:], m.lit)
		if i < 0 {
			return spans, total
		}
		total++
		if max <= 0 || len(spans) < max {
			spans = append(spans, [2]int{off + i, off + i + len(m.lit)})
		}
		off += i + len(m.lit)
	}
}

// Match reports whether text holds a match.
func (m *Matcher) Match(text string) bool {
	if m.re != nil {
		return m.re.MatchString(text)
	}
	return strings.Contains(text, m.lit)
}

// foldFixed is the expression of a fixed string matched ignoring case: an
// ASCII letter matches its other ASCII case only (so k is not the Kelvin
// sign, s not the long s, as a person expects of -i), any other letter its
// Unicode simple case folds, as (?i) does.
func foldFixed(pattern string) string {
	var b strings.Builder
	for _, r := range pattern {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteString("[" + string(r) + string(r-32) + "]")
		case r >= 'A' && r <= 'Z':
			b.WriteString("[" + string(r+32) + string(r) + "]")
		case r < 0x80:
			b.WriteString(regexp.QuoteMeta(string(r)))
		default:
			b.WriteString("(?i:" + regexp.QuoteMeta(string(r)) + ")")
		}
	}
	return b.String()
}

// requiredLiteral finds the longest literal that every match of expr must
// contain: the expression itself when it is a literal, else the longest
// literal piece of a top-level concatenation. fold says the literal is
// matched case-insensitively.
func requiredLiteral(expr string) (lit string, fold bool, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false, false
	}
	re = re.Simplify()
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	best := (*syntax.Regexp)(nil)
	consider := func(r *syntax.Regexp) {
		if r.Op == syntax.OpLiteral && (best == nil || len(string(r.Rune)) > len(string(best.Rune))) {
			best = r
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		consider(re)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			for s.Op == syntax.OpCapture && len(s.Sub) == 1 {
				s = s.Sub[0]
			}
			if s.Op == syntax.OpPlus && len(s.Sub) == 1 {
				s = s.Sub[0] // x+ holds x
			}
			consider(s)
		}
	}
	if best == nil {
		return "", false, false
	}
	return string(best.Rune), best.Flags&syntax.FoldCase != 0, true
}

// maxStreamLen is the longest match length regexpMaxLen reports: a pattern
// whose matches may be longer is matched on the whole text.
const maxStreamLen = 1 << 16

// regexpMaxLen returns the most bytes a match of expr can span when that is
// bounded (no *, +, or open {n,}) and expr has no empty-width assertion (^,
// $, \A, \z, \b, \B): such a pattern finds in a window of the text exactly
// the matches that lie whole in it, so it can be matched over a text read in
// pieces with maxLen-1 bytes carried from one to the next. ok is false
// otherwise.
func regexpMaxLen(expr string) (n int, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, false
	}
	n, ok = maxLenOf(re.Simplify(), false)
	if !ok || n <= 0 || n > maxStreamLen {
		return 0, false
	}
	return n, true
}

// maxLenOf is the longest match of re in bytes (ok false: unbounded). With
// asserts, an empty-width assertion (^ $ \A \z \b \B) spans nothing;
// without, it makes the length unknown (the caller cannot match it in
// pieces).
func maxLenOf(re *syntax.Regexp, asserts bool) (int, bool) {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch:
		return 0, true
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, asserts
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return utf8.UTFMax * len(re.Rune), true // a fold may be longer (k, K)
		}
		n := 0
		for _, r := range re.Rune {
			l := utf8.RuneLen(r)
			if l < 0 {
				l = utf8.UTFMax
			}
			n += l
		}
		return n, true
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax, true
	case syntax.OpCapture:
		return maxLenOf(re.Sub[0], asserts)
	case syntax.OpQuest:
		return maxLenOf(re.Sub[0], asserts)
	case syntax.OpRepeat:
		if re.Max < 0 {
			return 0, false
		}
		n, ok := maxLenOf(re.Sub[0], asserts)
		if !ok || (n > 0 && re.Max > maxStreamLen/n) {
			return 0, false
		}
		return n * re.Max, true
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n, ok := maxLenOf(sub, asserts)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else if n > total {
				total = n
			}
			if total > maxStreamLen {
				return 0, false
			}
		}
		return total, true
	}
	// Star, Plus: unbounded.
	return 0, false
}

// testsPosition reports whether expr holds an empty-width assertion (^, $,
// \A, \z, \b, \B, with or without (?m)), or cannot be parsed: a match
// found in a slice of a text may then not be one in the text.
func testsPosition(expr string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		for _, sub := range r.Sub {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(re.Simplify())
}
