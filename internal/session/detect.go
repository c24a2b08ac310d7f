// Package session is a thin compatibility layer over the format registry
// (internal/sessfmt) for the callers that have not moved to it yet
// (cmd/fork, discover.Resolver, Factory.ResolveSession). It holds no
// format knowledge of its own: Detect asks the registry. Delete it when
// nothing imports it.
package session

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
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

// Detect says which format the file at path is in, as the format
// registry's sniffing decides (internal/sessfmt/formats); a file no
// format knows is FormatUnknown without an error.
func Detect(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FormatUnknown, err
	}
	if st.IsDir() {
		return FormatUnknown, fmt.Errorf("%s is a directory, not a session file", path)
	}
	ref, err := formats.New(nil).SniffFile(path)
	var ns *sessfmt.NotSessionError
	if errors.As(err, &ns) {
		return FormatUnknown, nil
	}
	if err != nil {
		return FormatUnknown, err
	}
	return Format(ref.Format), nil
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
