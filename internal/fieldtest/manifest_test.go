package fieldtest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// entry is one row of testdata/field/MANIFEST.tsv: one session of the field
// corpus with the verdict reasoned out for it.
type entry struct {
	File     string // path under the corpus root, "#<id>" for a session of a store
	Agent    string // claude, pi, openclaw, opencode
	Kind     string // real (written by the agent) or fixture (written by hand in the source repository)
	Licence  string
	Repo     string
	Commit   string
	Path     string // path in the source repository
	Expect   expectation
	Messages int // show's message count; -1: not asserted
	Note     string
	Line     int // line of the manifest
}

// expectation is what check must say about a session.
type expectation struct {
	Unreadable bool   // check cannot read it (exit 1)
	Wants      []want // the warnings and errors check must (or may) report
}

// want is one expected problem: severity and code ("*": any code no other
// want names), optionally the exact lines it is reported on, optionally
// allowed rather than required.
type want struct {
	Severity string
	Code     string
	Lines    []int
	Optional bool
}

func (w want) String() string {
	s := w.Severity + ":" + w.Code
	if len(w.Lines) > 0 {
		var ls []string
		for _, l := range w.Lines {
			ls = append(ls, strconv.Itoa(l))
		}
		s += "@" + strings.Join(ls, "+")
	}
	if w.Optional {
		s += "?"
	}
	return s
}

// healthy says whether check must report no warning and no error.
func (e expectation) healthy() bool {
	if e.Unreadable {
		return false
	}
	for _, w := range e.Wants {
		if !w.Optional {
			return false
		}
	}
	return true
}

// parseExpect reads the expect column: "healthy", "unreadable", or a comma
// list of severity:code[@line+line][?] (healthy may be combined with
// optional wants).
func parseExpect(s string) (expectation, error) {
	var e expectation
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		switch tok {
		case "healthy":
			continue
		case "unreadable":
			e.Unreadable = true
			continue
		}
		var w want
		if strings.HasSuffix(tok, "?") {
			w.Optional = true
			tok = strings.TrimSuffix(tok, "?")
		}
		if at := strings.IndexByte(tok, '@'); at >= 0 {
			for _, l := range strings.Split(tok[at+1:], "+") {
				n, err := strconv.Atoi(l)
				if err != nil {
					return e, fmt.Errorf("bad line %q in %q", l, s)
				}
				w.Lines = append(w.Lines, n)
			}
			tok = tok[:at]
		}
		sev, code, ok := strings.Cut(tok, ":")
		if !ok || (sev != "warning" && sev != "error") || code == "" {
			return e, fmt.Errorf("bad expectation %q in %q", tok, s)
		}
		w.Severity, w.Code = sev, code
		e.Wants = append(e.Wants, w)
	}
	return e, nil
}

// readManifest reads the manifest: tab-separated, a header row, lines
// starting with # are comments.
func readManifest(path string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n, header := 0, false
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if !header {
			header = true
			if cols[0] != "file" {
				return nil, fmt.Errorf("%s:%d: the first row must be the header", path, n)
			}
			continue
		}
		if len(cols) != 10 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 10", path, n, len(cols))
		}
		ex, err := parseExpect(cols[7])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		msgs := -1
		if cols[8] != "-" {
			if msgs, err = strconv.Atoi(cols[8]); err != nil {
				return nil, fmt.Errorf("%s:%d: messages %q", path, n, cols[8])
			}
		}
		out = append(out, entry{File: cols[0], Agent: cols[1], Kind: cols[2], Licence: cols[3], Repo: cols[4], Commit: cols[5],
			Path: cols[6], Expect: ex, Messages: msgs, Note: cols[9], Line: n})
	}
	return out, sc.Err()
}
