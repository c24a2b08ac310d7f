package search

import (
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// streamLong says a long line is matched in pieces by search without -l
// (longTexts); tests turn it off to compare with the held reading.
var streamLong = true

// longTexts matches the texts of a line longer than jsonl.LongLine
// (sessfmt.TextOptions.Long) without holding it, for search without -l:
// longLineTexts over the texts l.Texts reads, once the raw line holds the
// literal (the held path's Candidate). keep says which texts are searched
// (kinds, roles, active path); hit is called once per text with a match,
// as the held path does. It returns sessfmt.ErrReadWhole, before any hit,
// when the line cannot be matched in pieces (it is then held, as before).
func longTexts(m *Matcher, l *sessfmt.LongLine, pre *Prefilter, buf []byte, width int,
	keep func(x *sessfmt.Text) bool, hit func(x *sessfmt.Text, snippet string, spans [][2]int, total int) error) error {
	if pre != nil {
		any, err := pre.Any(io.NewSectionReader(l.File, l.Off, l.Len), buf)
		if err != nil || !any {
			return err
		}
	}
	return longLineTexts(m, l.File, l.Off, l.Len, l.Loose, width, l.Texts, keep, hit)
}

// longLineHit finds the first hit of a long line of fh (offset off, n
// bytes, line number line) for search -l: longLineTexts over the texts the
// format's line reader lt gives, found called with the first hit. It
// returns sessfmt.ErrReadWhole, before any hit, when the line cannot be
// matched in pieces, errStop after a hit.
func longLineHit(cfg *Config, lt sessfmt.LineTexter, fh *os.File, line int, off, n int64, width int,
	found func(x *sessfmt.Text, snippet string, spans [][2]int, total int)) error {
	lo, _ := lt.(looseTexter)
	texts := func(small []byte, fn func(*sessfmt.Text) error) error {
		return lt.LineTexts(line, small, cfg.Kinds, fn)
	}
	keep := func(x *sessfmt.Text) bool { return x.Kind&cfg.Kinds != 0 && RoleMatches(cfg.Roles, x.Role) }
	return longLineTexts(cfg.Matcher, fh, off, n, lo != nil && lo.LooseStrings(), width, texts, keep,
		func(x *sessfmt.Text, snippet string, spans [][2]int, total int) error {
			found(x, snippet, spans, total)
			return errStop
		})
}

// longLineTexts matches the texts of a long line of ra (offset off, n
// bytes) without holding it, for search with and without -l: the line's
// string values over jsonl.ElidedMin are left out (jsonl.Elider), texts
// reads the small rest as the line's texts (the format's reader), a text
// that is not left out is matched as it is, and a text that is one
// left-out string is decoded from ra in pieces (as fastjson does when
// loose, else as encoding/json) and matched piece by piece (streamMatch),
// its snippet cut from the text kept around its first match. keep says
// which texts are searched; hit is called once per text with a match, in
// order, and an error from it ends the walk and is returned.
//
// A regular expression whose matches have no bounded length (*, +, {n,})
// is matched so as if no match in a left-out string were longer than
// maxStreamLen (64 KiB, Matcher.window): the matches and snippets are the
// held reading's whenever that holds; a longer match is cut short (counted
// as one or more shorter ones) or missed. Memory stays bounded.
//
// It returns sessfmt.ErrReadWhole, before any hit, when the line cannot be
// matched so: a regular expression that tests positions (^, $, \A, \z, \b,
// \B) and whose matches are unbounded or may be empty (a bounded one is
// matched in pieces, see longassert.go), a line the Elider cannot read, or
// a kept text that holds a left-out string without being exactly one (a
// tool call's arguments).
func longLineTexts(m *Matcher, ra io.ReaderAt, off, n int64, loose bool, width int,
	texts func(small []byte, fn func(*sessfmt.Text) error) error,
	keep func(x *sessfmt.Text) bool, hit func(x *sessfmt.Text, snippet string, spans [][2]int, total int) error) error {
	if m.pieceLen() == 0 {
		return sessfmt.ErrReadWhole
	}
	el := jsonl.NewElider(jsonl.ElidedMin)
	small, err := el.Elide(nil, io.NewSectionReader(ra, off, n), off)
	if err != nil {
		return sessfmt.ErrReadWhole
	}
	// The texts first (small: long strings are placeholders), so that the
	// line is given up before any hit when one cannot be matched in pieces.
	var kept []sessfmt.Text
	if err := texts(small, func(x *sessfmt.Text) error {
		if !keep(x) {
			return nil
		}
		if jsonl.Holds(x.Text) {
			if _, ok := el.Lookup(x.Text); !ok {
				return sessfmt.ErrReadWhole
			}
		}
		kept = append(kept, *x)
		return nil
	}); err != nil {
		return err
	}
	for i := range kept {
		x := &kept[i]
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
		if err := decodeElided(ra, e, loose, sm.piece); err != nil {
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
