package pi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/migrate"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
)

// Legacy describes a file below format version 3 as the agent reads it:
// pi (and oh-my-pi) migrate v1/v2 files in memory when they open them
// (v1→v2 gives every entry an id and chains them in file order; v2→v3
// renames the hookMessage role). Open does the same migration
// (internal/migrate), in memory only: the file is never written. The index,
// the tree and every line read back (ReadLines, EachLine, the context) are
// those of the migrated file.
type Legacy struct {
	// FromVersion is the file's version (header.version ?? 1; 0 when it is
	// not an integer, see VersionRaw).
	FromVersion int
	VersionRaw  string
	// Summary is what the migration did.
	Summary migrate.Summary
	// AgentFails is set when pi's own migration throws on this file (a
	// line that is not an object): pi cannot open it at all.
	AgentFails string
}

// lineEdit turns a stored line into its migrated form:
// line[:keep] + ins + line[len(line)-tail:]. One hunk is enough: the
// migration changes a role in place and appends keys at the end.
type lineEdit struct {
	keep, tail int32
	ins        []byte
}

// legacyLine returns entry i's line as the migration makes it (line is the
// stored line without its newline; buf is reused for the result).
func (f *File) legacyLine(i int, line []byte, buf *[]byte) []byte {
	if f.edits == nil || i >= len(f.edits) {
		return line
	}
	e := f.edits[i]
	if e.ins == nil && e.keep == 0 && e.tail == 0 {
		return line
	}
	if int(e.keep)+int(e.tail) > len(line) {
		return line // not the line the edit was made for
	}
	b := append((*buf)[:0], line[:e.keep]...)
	b = append(b, e.ins...)
	b = append(b, line[len(line)-int(e.tail):]...)
	*buf = b
	return b
}

// legacyIDs makes the ids the migration hands out: pi draws random ones,
// sessctl derives them from the session id and the entry's place, so that
// every read of the same file shows the same ids (a --leaf taken from one
// run works in the next).
func legacyIDs(sessionID string) func() string {
	n := 0
	return func() string {
		n++
		h := sha256.Sum256([]byte(sessionID + "\x00" + strconv.Itoa(n)))
		return hex.EncodeToString(h[:4])
	}
}

// applyLegacy migrates a v1/v2 file in memory (see Legacy). It reads the
// file twice; nothing is written.
func (f *File) applyLegacy() error {
	if f.Header == nil || f.HeaderErr != nil || f.Header.Version >= CurrentVersion {
		return nil
	}
	m := migrate.New(migrate.Options{NewID: legacyIDs(f.Header.ID)})
	if err := migrate.EachLine(f.Path, f.Size, m.Observe); err != nil {
		return err
	}
	sum, err := m.Plan()
	if err != nil || !sum.Needed {
		return nil
	}
	edits := make([]lineEdit, len(f.Entries))
	ids := make([][]byte, len(f.Entries))
	parents := make([][]byte, len(f.Entries))
	roles := make([]string, len(f.Entries))
	k, phys := 0, 0
	err = migrate.EachLine(f.Path, f.Size, func(line []byte) error {
		phys++
		out, err := m.Line(line)
		if err != nil {
			return err
		}
		for k < len(f.Entries) && int(f.Line(k)) < phys {
			k++
		}
		if k >= len(f.Entries) || int(f.Line(k)) != phys {
			return nil
		}
		in := bytes.TrimSuffix(line, []byte("\n"))
		out = bytes.TrimSuffix(out, []byte("\n"))
		body := bytes.TrimPrefix(bytes.TrimSuffix(out, []byte("\r")), jsonl.BOM)
		if v, ok := jsonl.Field(body, "id"); ok {
			ids[k] = append([]byte(nil), v...)
		}
		if v, ok := jsonl.Field(body, "parentId"); ok {
			parents[k] = append([]byte(nil), v...)
		}
		if f.Entries[k].Type() == "message" && f.Entries[k].Role() == "hookMessage" {
			msg, _ := jsonl.Field(body, "message")
			roles[k], _ = jsonl.String(sub(msg, "role"))
		}
		if !bytes.Equal(in, out) {
			p := 0
			for p < len(in) && p < len(out) && in[p] == out[p] {
				p++
			}
			s := 0
			for s < len(in)-p && s < len(out)-p && in[len(in)-1-s] == out[len(out)-1-s] {
				s++
			}
			edits[k] = lineEdit{keep: int32(p), tail: int32(s), ins: append([]byte{}, out[p:len(out)-s]...)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sum = m.Summary()
	lg := &Legacy{FromVersion: sum.FromVersion, VersionRaw: sum.VersionRaw, Summary: sum}
	if sum.KeptNonObject > 0 && sum.FromVersion < 2 {
		lg.AgentFails = "pi's own migration fails on a line that is not a JSON object (\"Cannot create property 'id'\"), so pi cannot open this file; sessctl keeps the line and shows the rest"
	}
	// Rebuild the index with the migrated ids.
	idx := tree.New(tree.LastWins, len(f.Entries))
	for i := range f.Entries {
		e := &f.Entries[i]
		n := f.Index.Node(i)
		if ids[i] != nil {
			e.setFlags(e.flags() &^ (flagNoID | flagNullID))
			n.ID = rawKey(ids[i])
			if string(ids[i]) == "null" {
				e.setFlags(e.flags() | flagNullID)
			}
		}
		if parents[i] != nil || ids[i] != nil {
			n.Parent, n.HasParent = "", false
			if jsonl.Truthy(parents[i]) {
				n.Parent, n.HasParent = rawKey(parents[i]), true
			}
		}
		if roles[i] != "" {
			e.setKind(kindOf("message", roles[i]))
		}
		idx.Add(tree.Node{ID: n.ID, Parent: n.Parent, HasParent: n.HasParent, Line: n.Line})
	}
	idx.Finish()
	f.Index = idx
	f.edits = edits
	f.Legacy = lg
	// The tree findings of the stored file (entries without ids, …) are
	// not what the agent sees: find them again on the migrated tree.
	kept := f.Problems[:0]
	for _, p := range f.Problems {
		switch p.Code {
		case problem.DuplicateID, problem.MissingID, problem.SelfParent, problem.Cycle, problem.Orphan, problem.SeveralRoots:
			continue
		}
		kept = append(kept, p)
	}
	f.Problems = kept
	f.structuralProblems()
	return nil
}

// legacyNotice is check's only word on a file the agent migrates when it
// opens it.
func (f *File) legacyNotice() problem.Problem {
	v := strconv.Itoa(f.Legacy.FromVersion)
	if f.Legacy.VersionRaw != "" {
		v = f.Legacy.VersionRaw
	}
	msg := fmt.Sprintf("session format version %s: pi migrates it to version %d in memory when it opens it (and then rewrites the file in place); sessctl reads it as migrated and writes nothing. sessctl migrate upgrades it", v, CurrentVersion)
	if s := f.Legacy.Summary; s.CompactionsUnmapped+s.CompactionsDangling+s.IndexKept > 0 {
		msg += fmt.Sprintf(". After the migration %d compaction(s) keep nothing from before them (their firstKeptEntryIndex names no earlier entry), as in pi", s.CompactionsUnmapped+s.CompactionsDangling+s.IndexKept)
	}
	sev := problem.Info
	if f.Legacy.AgentFails != "" {
		msg += ". " + f.Legacy.AgentFails
		sev = problem.Error
	}
	return problem.Problem{Code: CodeOutdatedVersion, Severity: sev, Line: f.Header.Line, Message: msg, Fix: "sessctl migrate " + f.Path}
}
