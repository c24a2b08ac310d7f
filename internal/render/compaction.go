package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/sessctl/sessctl/internal/model"
)

// DrawCompactView prints compactions for people.
func DrawCompactView(w io.Writer, cv *model.CompactView, full, tty bool, st Styles) {
	fmt.Fprintln(w, st.Dim.Sprint(EscapeLine(fmt.Sprintf("%s · leaf %s · %d entries on the path", cv.Path, cv.LeafID, cv.PathEntries))))
	if len(cv.Compactions) == 0 {
		fmt.Fprintln(w, "no compaction on the active path: the model sees the whole path")
		return
	}
	for i, c := range cv.Compactions {
		head := fmt.Sprintf("compaction %d of %d · %s · line %d", i+1, len(cv.Compactions), c.ID, c.Line)
		if !c.Time.IsZero() {
			head += " · " + FormatTime(c.Time, tty)
		}
		head += " · " + c.Trigger
		if c.TokensBefore != nil {
			head += fmt.Sprintf(" · %d tokens before", *c.TokensBefore)
		}
		if c.TokensAfter != nil {
			head += fmt.Sprintf(", %d after", *c.TokensAfter)
		}
		fmt.Fprintln(w)
		if c.InEffect {
			fmt.Fprintln(w, st.Bold.Sprint(EscapeLine(head))+" "+st.OK.Sprint("(in effect)"))
		} else {
			fmt.Fprintln(w, st.Bold.Sprint(EscapeLine(head))+" "+st.Dim.Sprint("(superseded by a later compaction)"))
		}
		fmt.Fprintf(w, "  hides %s\n", rangeText(c.Hidden))
		fmt.Fprintf(w, "  keeps %s\n", rangeText(c.Kept))
		fmt.Fprintf(w, "  then  %s after it\n", rangeText(c.After))
		for _, p := range c.Preserved {
			fmt.Fprintf(w, "  preserved: %s\n", EscapeLine(p))
		}
		for _, n := range c.Notes {
			fmt.Fprintln(w, st.Warn.Sprint("  note: "+EscapeLine(n)))
		}
		if c.ShortSummary != "" {
			fmt.Fprintf(w, "  short summary: %s\n", EscapeLine(c.ShortSummary))
		}
		sum := strings.TrimRight(c.Summary, "\n")
		lines := strings.Split(sum, "\n")
		fmt.Fprintln(w, "  summary:")
		if !full && len(lines) > 8 {
			for _, l := range lines[:8] {
				fmt.Fprintln(w, "    "+Escape(l))
			}
			fmt.Fprintln(w, st.Dim.Sprintf("    … %d more lines (--full shows them)", len(lines)-8))
		} else {
			for _, l := range lines {
				fmt.Fprintln(w, "    "+Escape(l))
			}
		}
	}
	for _, x := range cv.Warnings {
		fmt.Fprintln(w, st.Warn.Sprint("warning: "+EscapeLine(x)))
	}
}

func rangeText(r model.Range) string {
	if r.Entries == 0 {
		return "nothing"
	}
	s := fmt.Sprintf("%d %s (%d %s)", r.Entries, plural(r.Entries, "entry", "entries"), r.Messages, plural(r.Messages, "message", "messages"))
	if r.FirstID == r.LastID {
		return s + ": " + EscapeLine(r.FirstID)
	}
	return s + ": " + EscapeLine(r.FirstID) + " … " + EscapeLine(r.LastID)
}
