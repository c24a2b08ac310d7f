package sessfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Registry holds the formats, in the order they are asked, and the id
// lookup over every discovered root.
type Registry struct {
	formats []Format
	// Lookup finds sessions whose id starts with a prefix across every
	// discovered root (nil: only paths and store refs are accepted).
	Lookup func(idOrPrefix string) ([]Ref, error)
}

// New returns a registry of the given formats, asked in that order.
func New(formats ...Format) *Registry { return &Registry{formats: formats} }

// Formats returns the registered formats in order.
func (r *Registry) Formats() []Format { return append([]Format(nil), r.formats...) }

// Format returns the format registered under name, or nil.
func (r *Registry) Format(name string) Format {
	for _, f := range r.formats {
		if f.Name() == name {
			return f
		}
	}
	return nil
}

// ErrNotFound is wrapped when an argument names no session.
var ErrNotFound = errors.New("no such session")

// AmbiguousError says an id prefix matches several sessions (exit 2).
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
		fmt.Fprintf(&b, "\n  %s", c.String())
	}
	return b.String()
}

// NotSessionError says a regular file is no format's session.
type NotSessionError struct{ Path string }

func (e *NotSessionError) Error() string {
	return e.Path + ": cannot tell which agent wrote this file (no session header or known record shape)"
}

// Resolve turns a command-line argument into a Ref: a store reference a
// format claims, a session file (sniffed), or an id or unique id prefix
// looked up across every root. Anything that is neither a regular file nor
// a claimed store is refused before it is opened (a FIFO would hang).
func (r *Registry) Resolve(arg string) (Ref, error) {
	if ref, ok := r.claim(arg); ok {
		return ref, nil
	}
	st, err := os.Stat(arg)
	if err == nil {
		if st.IsDir() {
			return Ref{}, fmt.Errorf("%s is a directory; name a session file in it", arg)
		}
		if !st.Mode().IsRegular() {
			return Ref{}, fmt.Errorf("%s is not a regular file (%s); sessctl reads only session files", arg, st.Mode().Type())
		}
		return r.SniffFile(arg)
	}
	looksLikePath := strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".jsonl") || strings.HasSuffix(arg, ".json")
	if looksLikePath || r.Lookup == nil {
		return Ref{}, err
	}
	refs, lerr := r.Lookup(arg)
	if lerr != nil {
		return Ref{}, lerr
	}
	switch len(refs) {
	case 0:
		return Ref{}, fmt.Errorf("%w: no file %q and no session whose id starts with it (sessctl list shows them all)", ErrNotFound, arg)
	case 1:
		ref := refs[0]
		if c, ok := r.claim(ref.Path); ok { // a store reference ("<db>#<id>")
			if c.Agent == "" {
				c.Agent = ref.Agent
			}
			return c, nil
		}
		if ref.Format == "" || r.Format(ref.Format) == nil {
			s, err := r.SniffFile(ref.Path)
			s.Agent = ref.Agent
			return s, err
		}
		return ref, nil
	}
	return Ref{}, &AmbiguousError{Prefix: arg, Candidates: refs}
}

// SniffFile asks every format about the regular file at path and returns a
// Ref for the surest; a file no format knows is a *NotSessionError.
func (r *Registry) SniffFile(path string) (Ref, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Ref{}, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return Ref{}, err
	}
	if !st.Mode().IsRegular() {
		return Ref{}, fmt.Errorf("%s is not a regular file (%s); sessctl reads only session files", path, st.Mode().Type())
	}
	head, err := io.ReadAll(io.LimitReader(bufio.NewReader(fh), SniffBytes))
	if err != nil {
		return Ref{}, err
	}
	best, score := r.sniff(path, head)
	if score < SniffSure && int64(len(head)) < st.Size() {
		// Only a guess from the path, and the head was cut: the first
		// lines may be longer than SniffBytes (a pasted image). Look
		// further, up to SniffMaxBytes, without holding a long line.
		long, err := longHead(fh, st.Size())
		if err != nil {
			return Ref{}, err
		}
		best, score = r.sniff(path, long)
	}
	if best == nil {
		return Ref{Path: path}, &NotSessionError{Path: path}
	}
	return Ref{Format: best.Name(), Path: path}, nil
}

// SniffHead asks every format about a file at path whose first bytes are
// head, as SniffFile does but without reading the file and without its
// second, longer look: the name of the surest format and its score ("" and
// 0 when no format knows it). Discover uses it on a first line it already
// read.
func (r *Registry) SniffHead(path string, head []byte) (string, int) {
	best, score := r.sniff(path, head)
	if best == nil {
		return "", 0
	}
	return best.Name(), score
}

// Open resolves arg and opens the session it names.
func (r *Registry) Open(arg string, opts OpenOptions) (Session, error) {
	ref, err := r.Resolve(arg)
	if err != nil {
		return nil, err
	}
	return r.OpenRef(ref, opts)
}

// OpenRef opens a resolved reference with the format that claimed it.
func (r *Registry) OpenRef(ref Ref, opts OpenOptions) (Session, error) {
	f := r.Format(ref.Format)
	if f == nil {
		return nil, fmt.Errorf("%s: no format %q is registered", ref.String(), ref.Format)
	}
	return f.Open(ref, opts)
}

// CheckOptions asks every format that checks options whether opts are
// valid; the first error is returned (the command reports it as a usage
// error).
func (r *Registry) CheckOptions(opts OpenOptions) error {
	for _, f := range r.formats {
		if c, ok := f.(OptionChecker); ok {
			if err := c.CheckOptions(opts); err != nil {
				return err
			}
		}
	}
	return nil
}

// claim asks the formats, in order, whether one owns arg outright.
func (r *Registry) claim(arg string) (Ref, bool) {
	for _, f := range r.formats {
		if ref, ok := f.Claim(arg); ok {
			return ref, true
		}
	}
	return Ref{}, false
}

// sniff returns the format with the highest score for head (the first of
// equals), or nil when every format says 0.
func (r *Registry) sniff(path string, head []byte) (Format, int) {
	best, score := Format(nil), 0
	for _, f := range r.formats {
		if s := f.Sniff(path, head); s > score {
			best, score = f, s
		}
	}
	return best, score
}
