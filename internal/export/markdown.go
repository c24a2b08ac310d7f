package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
)

// Markdown writes d as Markdown: a heading per message (role, time, entry
// id), text as written, tool calls and results in fenced blocks named by
// the tool, thinking in <details>, images as references, compaction and
// branch summaries marked. Session text cannot break out: HTML in prose is
// escaped, fences are longer than any backtick run inside, and terminal
// control characters are shown as escapes.
func Markdown(w io.Writer, d *Doc, o Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	title := d.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(bw, "# %s\n\n", mdInline(title))
	meta := []string{}
	if d.Agent != "" {
		meta = append(meta, "agent "+mdCode(d.Agent))
	}
	if d.ID != "" {
		meta = append(meta, "session "+mdCode(d.ID))
	}
	if len(meta) > 0 {
		fmt.Fprintf(bw, "%s\n\n", strings.Join(meta, " · "))
	}
	for _, h := range d.Header {
		fmt.Fprintf(bw, "> %s\n", mdInline(h))
	}
	if len(d.Header) > 0 {
		bw.WriteString("\n")
	}
	for _, wn := range d.Warnings {
		fmt.Fprintf(bw, "> **Warning:** %s\n\n", mdInline(wn))
	}
	if d.Redacted > 0 {
		fmt.Fprintf(bw, "> %d secrets were replaced by `[redacted:<kind>]`.\n\n", d.Redacted)
	}
	if err := writeMDMessages(bw, Filter(d.Messages, o), o, 2); err != nil {
		return err
	}
	for _, b := range d.Branches {
		fmt.Fprintf(bw, "\n---\n\n## Branch to %s\n\n", mdCode(b.Leaf))
		if err := writeMDMessages(bw, Filter(b.Messages, o), o, 3); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func writeMDMessages(w *bufio.Writer, ms []model.Message, o Options, level int) error {
	h := strings.Repeat("#", level)
	for i := range ms {
		m := &ms[i]
		head := fmt.Sprintf("%s %d. %s", h, i+1, mdInline(roleName(m)))
		if !m.Time.IsZero() {
			head += " · " + m.Time.UTC().Format("2006-01-02 15:04:05Z")
		}
		if m.ID != "" {
			head += " · " + mdCode(m.ID)
		}
		fmt.Fprintf(w, "%s\n\n", head)
		if m.Model != "" {
			fmt.Fprintf(w, "*%s*\n\n", mdInline(m.Model))
		}
		for _, n := range m.Notes {
			fmt.Fprintf(w, "*%s*\n\n", mdInline(n))
		}
		for j := range m.Blocks {
			if err := writeMDBlock(w, &m.Blocks[j], o); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeMDBlock writes one block; a text in the file (LongText) is written
// as it is read, never held.
func writeMDBlock(w *bufio.Writer, b *model.Block, o Options) error {
	if b.LongText != nil && b.Kind != "image" {
		return writeMDLong(w, b, o)
	}
	switch b.Kind {
	case "text":
		fmt.Fprintf(w, "%s\n\n", mdProse(b.Text))
	case "thinking":
		fmt.Fprintf(w, "<details><summary>Thinking</summary>\n\n%s\n\n</details>\n\n", mdProse(b.Text))
	case "toolCall":
		fmt.Fprintf(w, "**Tool call:** %s\n\n", mdCode(b.Name))
		fence(w, "json", b.Args)
	case "toolResult":
		label := "**Tool result**"
		if b.Name != "" {
			label = "**Tool result:** " + mdCode(b.Name)
		}
		if b.IsError {
			label += " (error)"
		}
		long := lineCount(b.Text) > o.foldLines() || len(b.Text) > o.foldBytes()
		if long {
			fmt.Fprintf(w, "<details><summary>Tool result %s (%d lines)</summary>\n\n", mdInline(b.Name), lineCount(b.Text))
			fence(w, "text", b.Text)
			w.WriteString("</details>\n\n")
			return nil
		}
		fmt.Fprintf(w, "%s\n\n", label)
		fence(w, "text", b.Text)
	case "image":
		fmt.Fprintf(w, "*[%s]*\n\n", mdInline(imageText(b)))
	default:
		desc := b.Name
		if b.Text != "" {
			desc += ": " + b.Text
		}
		fmt.Fprintf(w, "*[%s]*\n\n", mdInline(strings.TrimSpace(b.Kind+" "+desc)))
	}
	return nil
}

// writeMDLong is writeMDBlock for a block whose text is in the file: the
// same bytes, the text decoded piece by piece (a tool result's is read
// twice: its line count and fence come before it).
func writeMDLong(w *bufio.Writer, b *model.Block, o Options) error {
	switch b.Kind {
	case "text":
		err := writeLongProse(w, b.LongText)
		w.WriteString("\n\n")
		return err
	case "thinking":
		w.WriteString("<details><summary>Thinking</summary>\n\n")
		err := writeLongProse(w, b.LongText)
		w.WriteString("\n\n</details>\n\n")
		return err
	case "toolResult":
		f, err := longFacts(b.LongText)
		if err != nil {
			return err
		}
		if f.lines > o.foldLines() || f.bytes > int64(o.foldBytes()) {
			fmt.Fprintf(w, "<details><summary>Tool result %s (%d lines)</summary>\n\n", mdInline(b.Name), f.lines)
			if err := writeLongFence(w, "text", b.LongText, f); err != nil {
				return err
			}
			w.WriteString("</details>\n\n")
			return nil
		}
		label := "**Tool result**"
		if b.Name != "" {
			label = "**Tool result:** " + mdCode(b.Name)
		}
		if b.IsError {
			label += " (error)"
		}
		fmt.Fprintf(w, "%s\n\n", label)
		return writeLongFence(w, "text", b.LongText, f)
	}
	// Other kinds never get a text reference; held, they are described.
	c := *b
	if err := holdText(&c); err != nil {
		return err
	}
	return writeMDBlock(w, &c, o)
}

// fence writes s in a fenced block longer than any backtick run in s.
func fence(w *bufio.Writer, lang, s string) {
	n := 3
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	fmt.Fprintf(w, "%s%s\n%s\n%s\n\n", f, lang, render.Escape(s), f)
}

// mdProse keeps prose as Markdown but makes it inert as HTML: '<', '>' and
// '&' are written as entities, so no tag, comment or script survives, and
// control characters are shown as escapes.
func mdProse(s string) string {
	s = escapeHTMLText(render.Escape(s))
	// No link or image from session text: a [text](url) could point to
	// javascript: or load a remote image. A line opening a code fence
	// would swallow what follows; it is escaped too.
	s = strings.NewReplacer("[", "\\[", "]", "\\]").Replace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			lines[i] = l[:len(l)-len(t)] + "\\" + t
		}
	}
	return strings.Join(lines, "\n")
}

// mdInline is mdProse on one line, with Markdown's emphasis and link
// characters escaped too.
func mdInline(s string) string {
	s = escapeHTMLText(render.EscapeLine(s))
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]#|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode writes s as inline code, with a fence longer than its backticks.
func mdCode(s string) string {
	s = render.EscapeLine(s)
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return ticks + pad + s + pad + ticks
}

func escapeHTMLText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
