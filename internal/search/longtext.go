package search

import (
	"io"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// streamLong says a long line is matched in pieces by search without -l
// (longTexts); tests turn it off to compare with the held reading.
var streamLong = true

// longTexts matches the texts of a line longer than jsonl.LongLine
// (sessfmt.TextOptions.Long) without holding it, for search without -l: the
// line's string values over jsonl.ElidedMin are left out (jsonl.Elider),
// the small rest is read as the line's texts by l.Texts, a text that is not
// left out is matched as it is, and a text that is one left-out string is
// decoded from the file in pieces and matched piece by piece (streamMatch),
// its snippet cut from the text kept around its first match. keep says
// which texts are searched (kinds, roles, active path); hit is called once
// per text with a match, as the held path does.
//
// A regular expression whose matches have no bounded length (*, +, {n,})
// is matched so as if no match in a left-out string were longer than
// maxStreamLen (64 KiB, Matcher.window): the matches and snippets are the
// held reading's whenever that holds; a longer match is cut short (counted
// as one or more shorter ones) or missed. Memory stays bounded.
//
// It returns sessfmt.ErrReadWhole, before any hit, when the line cannot be
// matched so: a regular expression that tests positions (^, $, \A, \z, \b,
// \B) and whose matches are unbounded or may be empty (the line is then
// held, as before; a bounded one is matched in pieces, see longassert.go),
// a line
// the Elider cannot read, or a kept text that holds a left-out string
// without being exactly one (a tool call's arguments).
func longTexts(m *Matcher, l *sessfmt.LongLine, pre *Prefilter, buf []byte, width int,
	keep func(x *sessfmt.Text) bool, hit func(x *sessfmt.Text, snippet string, spans [][2]int, total int) error) error {
	if m.pieceLen() == 0 {
		return sessfmt.ErrReadWhole
	}
	if pre != nil {
		// The held path's Candidate: the raw line holds the literal.
		any, err := pre.Any(io.NewSectionReader(l.File, l.Off, l.Len), buf)
		if err != nil || !any {
			return err
		}
	}
	el := jsonl.NewElider(jsonl.ElidedMin)
	small, err := el.Elide(nil, io.NewSectionReader(l.File, l.Off, l.Len), l.Off)
	if err != nil {
		return sessfmt.ErrReadWhole
	}
	// The texts first (small: long strings are placeholders), so that the
	// line is given up before any hit when one cannot be matched in pieces.
	var texts []sessfmt.Text
	if err := l.Texts(small, func(x *sessfmt.Text) error {
		if !keep(x) {
			return nil
		}
		if jsonl.Holds(x.Text) {
			if _, ok := el.Lookup(x.Text); !ok {
				return sessfmt.ErrReadWhole
			}
		}
		texts = append(texts, *x)
		return nil
	}); err != nil {
		return err
	}
	for i := range texts {
		x := &texts[i]
		if !jsonl.Holds(x.Text) {
			spans, total := m.Find(x.Text, 0)
			if total == 0 {
				continue
			}
			snip, sp := Snippet(x.Text, spans, width)
			if err := hit(x, snip, sp, total); err != nil {
				return err
			}
			continue
		}
		e, _ := el.Lookup(x.Text)
		sm := newStreamMatch(m, width)
		if err := decodeElided(l.File, e, l.Loose, sm.piece); err != nil {
			return err
		}
		sm.end()
		if sm.total == 0 {
			continue
		}
		snip, sp := Snippet(string(sm.local), sm.spans, width)
		if err := hit(x, snip, sp, sm.total); err != nil {
			return err
		}
	}
	return nil
}
