package claude

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RecordTypes maps every line type Claude Code 2.1.330 writes to a
// transcript (the routing table of its writer, read from the binary with
// `strings`; see docs/formats.md) to what sessctl does with it. Lines of
// these types are never unknown; every line, known or not, is kept byte
// for byte by repair and fork.
var RecordTypes = map[string]string{
	"user":                      "message (chain)",
	"assistant":                 "message (chain)",
	"attachment":                "message (chain; not sent as a message)",
	"system":                    "message (chain; never sent)",
	"progress":                  "legacy chain record (bridged)",
	"summary":                   "title (last one, any leafUuid)",
	"custom-title":              "title",
	"ai-title":                  "title",
	"last-prompt":               "leaf choice and title",
	"tag":                       "list",
	"relocated":                 "metadata: /cd moved the transcript (relocatedCwd)",
	"continued-in":              "link to the session this one was resumed into",
	"ended-by-model":            "metadata",
	"agent-name":                "metadata",
	"agent-color":               "metadata",
	"agent-setting":             "metadata",
	"pr-link":                   "metadata",
	"frame-link":                "metadata",
	"artifact-comment-monitor":  "metadata",
	"artifact-autoreact-ledger": "metadata",
	"bridge-session":            "metadata",
	"history-suppression":       "metadata",
	"file-history-snapshot":     "metadata (file checkpoints)",
	"file-history-delta":        "metadata (file checkpoints)",
	"attribution-snapshot":      "metadata",
	"mode":                      "metadata",
	"permission-mode":           "metadata",
	"isolation-latch":           "metadata",
	"session-owner":             "metadata",
	"dev-mods":                  "metadata",
	"memory-mode":               "metadata",
	"atis-latch":                "metadata",
	"tools-used":                "metadata",
	"data-flow-records":         "metadata",
	"data-flow-incomplete":      "metadata",
	"derived-from":              "metadata",
	"worktree-state":            "metadata",
	"cost-state":                "metadata (cost totals)",
	"queue-operation":           "metadata",
	"content-replacement":       "metadata",
	"api-request-shape":         "metadata (request cache)",
	"api-request-blob":          "metadata (request cache)",
	"api-request":               "metadata (request cache)",
	"api-request-resumed":       "metadata (request cache)",
	"fork-context-ref":          "metadata",
	"observer-ref":              "metadata",
	"resume-head-vouch":         "metadata (resume-head.jsonl cache)",
	"line-withheld":             "placeholder for a line the writer withheld (bytes)",
	// older writers
	"task-summary":            "title (its summary field)",
	"speculation-accept":      "metadata (older)",
	"marble-origami-commit":   "metadata (older)",
	"marble-origami-snapshot": "metadata (older)",
}

// Known reports whether typ is a line type Claude Code writes.
func Known(typ string) bool { _, ok := RecordTypes[typ]; return ok }

// UnknownTypes lists the line types of the file that Claude Code 2.1.330
// does not write (kept byte for byte; reported only as information).
func (f *File) UnknownTypes() []string {
	seen := map[string]bool{}
	for _, lr := range f.lines {
		if t := f.names[lr.typ]; t != "" && !Known(t) && !seen[t] {
			seen[t] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Side files of a session in its project folder.
const (
	// ResumeHeadFile is Claude Code's load cache <session>/resume-head.jsonl:
	// never a session.
	ResumeHeadFile = "resume-head.jsonl"
	compactTmpMark = ".jsonl.compact.tmp."
	supersededMark = ".jsonl.superseded-"
)

// ProbCompactTemp: a <session>.jsonl.compact.tmp.<hex> file beside the
// transcript, left by a Claude Code rewrite that did not finish.
const ProbCompactTemp = "compact-temp-leftover"

// IsSideFile reports whether a file name in a project folder is one of
// Claude Code's side files rather than a transcript: a compaction rewrite's
// temp file, a transcript set aside by /cd (.superseded-<ms>) or the
// resume-head.jsonl cache.
func IsSideFile(name string) bool {
	return name == ResumeHeadFile || strings.Contains(name, compactTmpMark) || strings.Contains(name, supersededMark)
}

// CompactTemps lists the leftover compaction temp files of the transcript
// at path (<path>.compact.tmp.*).
func CompactTemps(path string) []string {
	m, _ := filepath.Glob(globQuote(path) + ".compact.tmp.*")
	sort.Strings(m)
	return m
}

// SupersededFiles lists the copies of the transcript at path that /cd set
// aside (<path>.superseded-<ms>), oldest first.
func SupersededFiles(path string) []string {
	m, _ := filepath.Glob(globQuote(path) + ".superseded-*")
	sort.Strings(m)
	return m
}

func globQuote(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}

// checkSideFiles reports leftover compaction temp files beside the
// transcript (Open, when the file has a path).
func (f *File) checkSideFiles() {
	for _, t := range CompactTemps(f.Path) {
		if st, err := os.Lstat(t); err == nil && st.Mode().IsRegular() {
			f.addProblem(ProbCompactTemp, 0, "", "%s is left over from a Claude Code transcript rewrite that did not finish (%d bytes); the transcript itself is what Claude Code loads", filepath.Base(t), st.Size())
		}
	}
}

// ContinuedIn is the session this one was resumed into (the last
// continued-in line), or "".
func (f *File) ContinuedIn() string { return f.Meta.ContinuedIn }

// RelocatedCwd is the working directory /cd moved the session to (the last
// relocated line), or "".
func (f *File) RelocatedCwd() string { return f.Meta.RelocatedCwd }
