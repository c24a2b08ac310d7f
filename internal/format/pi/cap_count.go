package pi

import (
	"bufio"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/tree"
)

// CountMessages is the number of messages show prints for the active leaf
// (sessfmt.MessageCounter), without decoding any. For the pi dialect it is
// counted from the index (countPi): which entries make the context and how
// many messages each gives, reading back only the newest compaction on the
// path, its context edits and branch summaries. Otherwise the context is
// streamed as Transcript streams it, long lines read elided (as Meta
// counts). With an error it is the count so far.
func (s *Session) CountMessages() (int, error) {
	leaf, err := s.LeafIndex()
	if err != nil {
		return 0, err
	}
	if n, ok, err := s.File.countPi(leaf); ok {
		return n, err
	}
	n := 0
	refs := newLongRefs()
	defer refs.close()
	_, err = s.File.streamContext(leaf, nil, func([]byte, int) error { n++; return nil }, refs)
	return n, err
}

// countPi is the number of messages streamPi emits for leaf, from the
// index: a message, custom_message or (older) kept entry gives one, a
// branch summary one when its summary is truthy, the newest compaction
// one (two with a truthy systemMessage in 1.5.2), and a 1.5.2 context_edit
// whose replacement is null removes its target's. ok is false when
// streamPi is not how the context is built (oh-my-pi, xcsh, no leaf).
// TestCountMessagesSameAsTranscript holds it equal to the streamed count.
func (f *File) countPi(leaf int) (n int, ok bool, err error) {
	if f.Dialect == DialectOmp || f.Dialect == DialectXcsh {
		return 0, false, nil
	}
	ctx, path, err := f.prepare(leaf)
	if err != nil || ctx.Leaf == tree.None {
		return 0, false, nil
	}
	v152 := f.PiVersion != Pi073
	var lr *lineReader
	entry := func(i int) (pathEntry, error) {
		if lr == nil {
			// A few lines (the newest compaction, context edits, branch
			// summaries), far apart: a small buffer, not openLines' 1 MiB,
			// which read a megabyte to get one line.
			fh, err := os.Open(f.Path)
			if err != nil {
				return pathEntry{}, err
			}
			lr = &lineReader{f: f, fh: fh, br: bufio.NewReaderSize(fh, 16<<10)}
		}
		return lr.entry(i)
	}
	defer func() {
		if lr != nil {
			lr.close()
		}
	}()
	kt := kindTable()
	compaction := -1
	// The walk back to the newest compaction also counts the messages
	// after it and notes what needs more: a path without compaction,
	// branch summary (read back) and 1.5.2 context_edit (the common one)
	// is counted by this walk alone.
	msgs, more := 0, uint8(0)
	for k := len(path) - 1; k >= 0; k-- {
		c := kindClass(kt, &f.Entries[path[k]])
		if c&kcCompaction != 0 {
			compaction = k
			break
		}
		if c&(kcMessage|kcCustomMessage) != 0 {
			msgs++
		}
		more |= c
	}
	if compaction < 0 && more&kcBranchSummary == 0 && !(v152 && more&kcContextEdit != 0) {
		return msgs, true, nil
	}
	sel := path
	compMsgs := 0
	if compaction >= 0 {
		ci := path[compaction]
		c, err := entry(ci)
		if err != nil {
			return 0, true, err
		}
		compMsgs = 1
		if sm, _ := jsonl.Field(c.line, "systemMessage"); v152 && jsonl.Truthy(sm) {
			compMsgs = 2
		}
		keptKey := noIDKey
		if fk := c.get("firstKeptEntryId"); fk != nil {
			keptKey = rawKey(fk)
		}
		sel = f.compactionSelect(path, compaction, keptKey, v152)
	}
	// 1.5.2: the latest context_edit per target; only a null replacement
	// changes the count (its target's messages are left out).
	var nullEdit map[string]bool
	if v152 {
		for _, i := range sel {
			if kindClass(kt, &f.Entries[i])&kcContextEdit == 0 {
				continue
			}
			pe, err := entry(i)
			if err != nil {
				return n, true, err
			}
			if nullEdit == nil {
				nullEdit = map[string]bool{}
			}
			target := noIDKey
			if t := pe.get("targetId"); t != nil {
				target = rawKey(t)
			}
			nullEdit[target] = string(pe.get("replacement")) == "null"
		}
	}
	for k, i := range sel {
		m := 0
		switch c := kindClass(kt, &f.Entries[i]); {
		case compaction >= 0 && k == 0:
			m = compMsgs
		case c&(kcMessage|kcCustomMessage) != 0:
			m = 1
		case c&kcBranchSummary != 0:
			pe, err := entry(i)
			if err != nil {
				return n, true, err
			}
			if branchSummaryMessage(&pe) != nil {
				m = 1
			}
		}
		if m > 0 && nullEdit != nil && nullEdit[f.Index.ID(i)] {
			m = 0
		}
		n += m
	}
	return n, true, nil
}
