package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

// TranscriptOptions controls how show prints a transcript.
type TranscriptOptions struct {
	Full       bool // no shortening of thinking, tool arguments and results
	TTY        bool
	Styles     Styles
	MaxLines   int // lines of a tool result or thinking kept when not Full (default 12)
	MaxArgs    int // characters of tool arguments kept when not Full (default 200)
	ShowIDs    bool
	ShortIDLen int
}

// DrawTranscript prints a transcript for people.
func DrawTranscript(w io.Writer, tr *model.Transcript, o TranscriptOptions) error {
	DrawTranscriptHeader(w, tr.Header, o)
	for i := range tr.Messages {
		DrawMessage(w, &tr.Messages[i], o)
	}
	return nil
}

func (o *TranscriptOptions) defaults() {
	if o.MaxLines == 0 {
		o.MaxLines = 12
	}
	if o.MaxArgs == 0 {
		o.MaxArgs = 200
	}
}

// DrawTranscriptHeader prints the lines that describe a session and its leaf.
func DrawTranscriptHeader(w io.Writer, header []string, o TranscriptOptions) {
	for _, h := range header {
		fmt.Fprintln(w, o.Styles.Dim.Sprint(EscapeLine(h)))
	}
	if len(header) > 0 {
		fmt.Fprintln(w)
	}
}

// DrawMessage prints one message of a transcript.
func DrawMessage(w io.Writer, m *model.Message, o TranscriptOptions) {
	_ = WriteMessage(w, m, o)
}

// WriteMessage is DrawMessage, returning the error of reading a block's
// text from its file (a model.TextRef), if any: the message is then cut
// there.
func WriteMessage(w io.Writer, m *model.Message, o TranscriptOptions) error {
	o.defaults()
	st := o.Styles
	var head []string
	role := m.Role
	if role == "" {
		role = "(no role)"
	}
	head = append(head, st.Role.Sprint(EscapeLine(role)))
	if m.Marker != "" {
		head = append(head, st.Warn.Sprint("["+EscapeLine(m.Marker)+"]"))
	}
	if m.Model != "" {
		head = append(head, EscapeLine(m.Model))
	}
	if !m.Time.IsZero() {
		head = append(head, FormatTime(m.Time, o.TTY))
	}
	if o.ShowIDs && m.ID != "" {
		id := m.ID
		if o.ShortIDLen > 0 && len(id) > o.ShortIDLen {
			id = id[:o.ShortIDLen]
		}
		head = append(head, st.Dim.Sprint(EscapeLine(id)))
	}
	fmt.Fprintf(w, "── %s\n", strings.Join(head, " · "))
	for _, n := range m.Notes {
		fmt.Fprintln(w, st.Dim.Sprint("   ("+EscapeLine(n)+")"))
	}
	for _, b := range m.Blocks {
		if b.Kind == "text" && m.Marker == CompactionSummary {
			// folded like a tool result (pi and Claude Code alike)
			if b.LongText != nil {
				if err := writeLongLimited(w, b.LongText, o); err != nil {
					return err
				}
				continue
			}
			writeLimited(w, b.Text, o)
			continue
		}
		if err := drawBlock(w, b, o); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// CompactionSummary is the marker of a compaction summary message: its
// text is folded to MaxLines lines unless Full, as tool results are.
const CompactionSummary = "compaction summary"

func drawBlock(w io.Writer, b model.Block, o TranscriptOptions) error {
	st := o.Styles
	if b.LongText != nil {
		switch b.Kind {
		case "text":
			return writeLongText(w, b.LongText)
		case "thinking":
			if o.Full {
				fmt.Fprintln(w, st.Dim.Sprint("[thinking]"))
				return writeLongDim(w, st.Dim, b.LongText)
			}
			return writeLongThinking(w, b.LongText, o)
		case "toolResult":
			writeResultHead(w, b, o)
			return writeLongLimited(w, b.LongText, o)
		}
	}
	switch b.Kind {
	case "text":
		// Written as is: fmt would copy a text of any size into its buffer.
		io.WriteString(w, Escape(strings.TrimRight(b.Text, "\n")))
		io.WriteString(w, "\n")
	case "thinking":
		t := strings.TrimRight(b.Text, "\n")
		if o.Full {
			fmt.Fprintln(w, st.Dim.Sprint("[thinking]"))
			fmt.Fprintln(w, st.Dim.Sprint(Escape(t)))
			return nil
		}
		n := strings.Count(t, "\n") + 1
		fmt.Fprintln(w, st.Dim.Sprintf("[thinking, %d %s] %s", n, plural(n, "line", "lines"), EscapeLine(Truncate(FirstLine(t), 100))))
	case "toolCall":
		args := b.Args
		if !o.Full {
			args = Truncate(args, o.MaxArgs)
		}
		id := ""
		if b.ID != "" {
			id = " " + st.Dim.Sprint(EscapeLine(b.ID))
		}
		fmt.Fprintf(w, "%s %s%s %s\n", st.Bold.Sprint("[tool call]"), EscapeLine(b.Name), id, EscapeLine(args))
	case "toolResult":
		writeResultHead(w, b, o)
		writeLimited(w, b.Text, o)
	case "image":
		fmt.Fprintln(w, st.Dim.Sprint(ImageLabel(b)))
	default:
		if b.Text != "" {
			fmt.Fprintln(w, st.Dim.Sprint("["+EscapeLine(b.Name)+"] "+EscapeLine(Truncate(b.Text, 200))))
		} else {
			fmt.Fprintln(w, st.Dim.Sprint("["+EscapeLine(b.Name)+"]"))
		}
	}
	return nil
}

// writeResultHead writes the line above a tool result's text.
func writeResultHead(w io.Writer, b model.Block, o TranscriptOptions) {
	label := "[tool result]"
	if b.IsError {
		label = "[tool error]"
	}
	name := ""
	if b.Name != "" {
		name = " " + EscapeLine(b.Name)
	}
	fmt.Fprintf(w, "%s%s\n", o.Styles.Bold.Sprint(label), name)
}

func writeLimited(w io.Writer, text string, o TranscriptOptions) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	if !o.Full && len(lines) > o.MaxLines {
		for _, l := range lines[:o.MaxLines] {
			fmt.Fprintln(w, Escape(l))
		}
		rest := len(lines) - o.MaxLines
		fmt.Fprintln(w, o.Styles.Dim.Sprintf("… %d more %s (--full shows them)", rest, plural(rest, "line", "lines")))
		return
	}
	fmt.Fprintln(w, Escape(text))
}

// ImageLabel describes an image block: "[image png 12 KB]".
func ImageLabel(b model.Block) string {
	kind := strings.TrimPrefix(b.MIME, "image/")
	if kind == "" {
		kind = "?"
	}
	parts := []string{"image", EscapeLine(kind)}
	if b.Size >= 0 {
		parts = append(parts, HumanBytes(b.Size))
	}
	if b.Ref != "" {
		parts = append(parts, "blob "+EscapeLine(shortRef(b.Ref)))
	}
	if b.Text != "" {
		parts = append(parts, EscapeLine(b.Text))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func shortRef(r string) string {
	r = strings.TrimPrefix(r, "blob:sha256:")
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

// HumanBytes formats a size: "512 B", "12 KB", "3.4 MB" (1 KB = 1024 B).
func HumanBytes(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.0f KB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MB", float64(n)/(k*k))
	default:
		return fmt.Sprintf("%.1f GB", float64(n)/(k*k*k))
	}
}
