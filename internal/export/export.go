// Package export writes a session's conversation for people to read or
// share: Markdown, and one self-contained HTML file (no network, no
// external assets, no script, a strict Content-Security-Policy), with the
// branch tree, folded long tool output, and optional secret redaction.
//
// The conversation is what show rebuilds (sessfmt.Contexter): the context
// at the leaf; other branches are added when asked.
package export

import (
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/secrets"
)

// Doc is what an export holds.
type Doc struct {
	// Title is the session's title (list's), Agent its agent, ID its id,
	// Ref the reference it was opened by.
	Title, Agent, ID, Ref string
	// Header are the lines show prints above the conversation.
	Header []string
	// Messages are the conversation at the leaf.
	Messages []model.Message
	// Tree is the session's entry tree (nil when the format draws none).
	Tree *model.Tree
	// Branches are the other branches (--all-branches): the messages from
	// where each leaves the active path to its leaf.
	Branches []Branch
	// Warnings are what the reader said about the conversation.
	Warnings []string
	// Generated is when the export was made (zero: not printed).
	Generated time.Time
	// Redacted counts the secrets replaced (Options.Redact).
	Redacted int
	// Images are the bytes of the image blocks of Messages, in order, for
	// HTML to embed (LoadImages); nil: images are described.
	Images []Image
	// imageData gives the data: URL of an image block by its ID, for a
	// session that holds its images' bytes so (OpenCode's ImageData).
	imageData func(id string) (string, bool)
	// imageDir is LoadImages' folder (Close removes it).
	imageDir string
}

// Branch is one branch that is not the active path.
type Branch struct {
	Leaf     string
	Messages []model.Message
}

// Options choose what is written.
type Options struct {
	NoTools    bool // leave out tool calls and results
	NoThinking bool // leave out thinking
	// FoldLines and FoldBytes: tool output longer than this is folded
	// (HTML: <details>); 0 picks 20 lines and 2,000 bytes.
	FoldLines, FoldBytes int
}

func (o Options) foldLines() int {
	if o.FoldLines <= 0 {
		return 20
	}
	return o.FoldLines
}

func (o Options) foldBytes() int {
	if o.FoldBytes <= 0 {
		return 2000
	}
	return o.FoldBytes
}

// Filter drops the blocks opts leave out; a message left empty is dropped
// unless it has a marker (a compaction, a branch summary).
func Filter(ms []model.Message, o Options) []model.Message {
	if !o.NoTools && !o.NoThinking {
		return ms
	}
	out := ms[:0:0]
	for _, m := range ms {
		bs := m.Blocks[:0:0]
		for _, b := range m.Blocks {
			if o.NoTools && (b.Kind == "toolCall" || b.Kind == "toolResult") {
				continue
			}
			if o.NoThinking && b.Kind == "thinking" {
				continue
			}
			bs = append(bs, b)
		}
		if len(bs) == 0 && m.Marker == "" {
			continue
		}
		m.Blocks = bs
		out = append(out, m)
	}
	return out
}

// Redact replaces every secret the detector knows in the document's text
// (titles, header lines, message text, tool arguments and output, notes,
// tree labels) with "[redacted:<kind>]", and counts them in d.Redacted.
// A text left in the session file (a model.TextRef) is read into memory
// first: the detector's rules need the whole text.
func Redact(d *Doc, det *secrets.Detector) error {
	for _, ms := range d.messageLists() {
		for i := range ms {
			for j := range ms[i].Blocks {
				if err := holdText(&ms[i].Blocks[j]); err != nil {
					return err
				}
			}
		}
	}
	r := func(s *string) {
		if *s == "" {
			return
		}
		out, n := det.Redact(*s)
		*s = out
		d.Redacted += n
	}
	r(&d.Title)
	d.Redacted += det.RedactLines(d.Header) + det.RedactLines(d.Warnings)
	for i := range d.Messages {
		d.Redacted += det.RedactMessage(&d.Messages[i])
	}
	for i := range d.Branches {
		for j := range d.Branches[i].Messages {
			d.Redacted += det.RedactMessage(&d.Branches[i].Messages[j])
		}
	}
	if d.Tree != nil {
		for i := range d.Tree.Nodes {
			r(&d.Tree.Nodes[i].Text)
			r(&d.Tree.Nodes[i].Label)
		}
	}
	return nil
}

// messageLists are the conversation and each other branch's messages.
func (d *Doc) messageLists() [][]model.Message {
	out := [][]model.Message{d.Messages}
	for _, b := range d.Branches {
		out = append(out, b.Messages)
	}
	return out
}

// roleName is how a message's role is written as a heading.
func roleName(m *model.Message) string {
	role := m.Role
	switch role {
	case "user":
		role = "User"
	case "assistant":
		role = "Assistant"
	case "toolResult", "tool":
		role = "Tool result"
	case "system":
		role = "System"
	case "compactionSummary":
		role = "Compaction summary"
	case "branchSummary":
		role = "Branch summary"
	case "":
		role = "(no role)"
	}
	if m.Marker != "" && !strings.EqualFold(m.Marker, role) {
		role += " · " + m.Marker
	}
	return role
}

// imageText describes an image block (images are references, never data).
func imageText(b *model.Block) string {
	var parts []string
	if b.MIME != "" {
		parts = append(parts, b.MIME)
	}
	if b.Size >= 0 {
		parts = append(parts, humanBytes(b.Size))
	}
	if b.Ref != "" {
		parts = append(parts, b.Ref)
	}
	return "image " + strings.Join(parts, " · ")
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return trimFloat(float64(n)/(1<<20)) + " MB"
	case n >= 1<<10:
		return trimFloat(float64(n)/(1<<10)) + " KB"
	}
	return itoa(int(n)) + " B"
}

func trimFloat(f float64) string {
	s := strings.TrimRight(strings.TrimRight(strconvF(f), "0"), ".")
	return s
}

func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

func itoa(n int) string { return strconv.Itoa(n) }

func strconvF(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
