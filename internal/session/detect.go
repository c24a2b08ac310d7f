// Package session finds out what a session argument names: which file, and
// in which agent's format. Formats are recognised by content, with the
// location only as a hint, so a file handed over by path is read correctly
// wherever it lives.
package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Format is a session file format.
type Format string

// Formats.
const (
	FormatPi        Format = "pi" // pi, oh-my-pi, xcsh and OpenClaw transcripts
	FormatClaude    Format = "claude"
	FormatAgentCore Format = "agentcore"
	FormatUnknown   Format = "unknown"
)

// sniffLines is how many parsed lines Detect looks at.
const sniffLines = 64

// Detect reads the head of a file and says which format it is in.
func Detect(path string) (Format, error) {
	fh, err := os.Open(path)
	if err != nil {
		return FormatUnknown, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return FormatUnknown, err
	}
	if st.IsDir() {
		return FormatUnknown, fmt.Errorf("%s is a directory, not a session file", path)
	}
	return DetectReader(io.LimitReader(bufio.NewReader(fh), 64<<20), path), nil
}

// DetectReader classifies the content read from r; path is only a hint.
func DetectReader(r io.Reader, path string) Format {
	rd := jsonl.NewReader(r)
	votes := map[Format]int{}
	parsed := 0
	for rd.Next() && parsed < sniffLines {
		rec := rd.Record()
		if rec.Kind != jsonl.Object {
			continue
		}
		parsed++
		typ := rec.Str("type")
		switch {
		case typ == "session" && hasString(rec, "id"):
			return FormatPi
		case typ == "title" && rec.Line == 1 && rec.Value.Get("v") != nil:
			return FormatPi
		case hasKey(rec, "uuid") || hasKey(rec, "parentUuid") || hasKey(rec, "sessionId") && hasKey(rec, "cwd"):
			votes[FormatClaude]++
		case typ == "summary" && hasKey(rec, "leafUuid"), typ == "file-history-snapshot", typ == "custom-title", typ == "ai-title", typ == "last-prompt", typ == "queue-operation":
			votes[FormatClaude]++
		case hasString(rec, "id") && isAgentCoreType(typ) && isNumber(rec, "timestamp"):
			votes[FormatAgentCore]++
		case isPiEntryType(typ) && hasKey(rec, "id"):
			votes[FormatPi]++
		}
	}
	switch {
	case votes[FormatPi] > votes[FormatClaude] && votes[FormatPi] > votes[FormatAgentCore]:
		return FormatPi // a pi-family file whose header is missing
	case votes[FormatClaude] > 0 && votes[FormatClaude] >= votes[FormatAgentCore]:
		return FormatClaude
	case votes[FormatAgentCore] > 0:
		return FormatAgentCore
	}
	// Nothing recognisable in the content: use the location as a hint.
	p := filepath.ToSlash(path)
	switch {
	case strings.Contains(p, "/.claude/projects/"):
		return FormatClaude
	case strings.Contains(p, "/.pi/agent/"), strings.Contains(p, "/.omp/"), strings.Contains(p, "/.xcsh/"), strings.Contains(p, "/.openclaw/"):
		return FormatPi
	case strings.Contains(p, "/.pi/sessions/"):
		return FormatAgentCore
	}
	return FormatUnknown
}

func isPiEntryType(t string) bool {
	switch t {
	case "message", "model_change", "thinking_level_change", "compaction", "branch_summary", "custom",
		"custom_message", "label", "session_info", "ttsr_injection", "mode_change", "session_init":
		return true
	}
	return false
}

func isAgentCoreType(t string) bool {
	switch t {
	case "user", "assistant", "tool", "tool_result", "system", "metadata":
		return true
	}
	return false
}

func hasKey(rec *jsonl.Record, k string) bool { return rec.Value.Get(k) != nil }

func hasString(rec *jsonl.Record, k string) bool {
	_, ok := rec.StrOK(k)
	return ok
}

func isNumber(rec *jsonl.Record, k string) bool {
	v := rec.Value.Get(k)
	return v != nil && v.Type() == fastjson.TypeNumber
}

// Ref is a resolved session argument.
type Ref struct {
	Path   string
	Format Format
	Agent  string // agent kind when known from discovery (pi, omp, xcsh, claude, …)
}

// ErrNotFound is returned when a session argument names nothing.
var ErrNotFound = errors.New("no such session")

// Resolver turns an id or id prefix into session references. Discovery
// provides one; nil means only paths are accepted.
type Resolver func(idOrPrefix string) ([]Ref, error)

// Resolve turns a session argument (a path, a full session id, or a unique id
// prefix) into a Ref. An argument that looks like a path (contains a
// separator or ends in .jsonl) is a path; anything else is looked up with
// lookup when a file of that name does not exist.
func Resolve(arg string, lookup Resolver) (Ref, error) {
	looksLikePath := strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".jsonl") || strings.HasSuffix(arg, ".json")
	if st, err := os.Stat(arg); err == nil {
		if st.IsDir() {
			return Ref{}, fmt.Errorf("%s is a directory; name a session file in it", arg)
		}
		f, err := Detect(arg)
		if err != nil {
			return Ref{}, err
		}
		return Ref{Path: arg, Format: f}, nil
	} else if looksLikePath || lookup == nil {
		return Ref{}, err
	}
	refs, err := lookup(arg)
	if err != nil {
		return Ref{}, err
	}
	switch len(refs) {
	case 0:
		return Ref{}, fmt.Errorf("%w: no file %q and no session whose id starts with it (sessctl list shows them all)", ErrNotFound, arg)
	case 1:
		r := refs[0]
		if r.Format == "" {
			f, err := Detect(r.Path)
			if err != nil {
				return Ref{}, err
			}
			r.Format = f
		}
		return r, nil
	}
	return Ref{}, &AmbiguousError{Prefix: arg, Candidates: refs}
}

// AmbiguousError says an id prefix matches several sessions.
type AmbiguousError struct {
	Prefix     string
	Candidates []Ref
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "session id prefix %q is ambiguous; it matches %d sessions:", e.Prefix, len(e.Candidates))
	for i, c := range e.Candidates {
		if i == 20 {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Candidates)-20)
			break
		}
		fmt.Fprintf(&b, "\n  %s", c.Path)
	}
	return b.String()
}
