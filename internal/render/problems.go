package render

import (
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/problem"
)

// Diagnostics prints the errors and warnings of a file on w (stderr), at most
// limit of them, then how many more there are and where to see them all.
func Diagnostics(w io.Writer, path string, ps []problem.Problem, st Styles, limit int) {
	shown := 0
	rest := 0
	for _, p := range ps {
		if p.Severity == problem.Info {
			continue
		}
		if limit > 0 && shown >= limit {
			rest++
			continue
		}
		shown++
		sev := st.Warn.Sprint("warning")
		if p.Severity == problem.Error {
			sev = st.Err.Sprint("problem")
		}
		loc := EscapeLine(path)
		if p.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, p.Line)
		}
		fmt.Fprintf(w, "%s: %s: %s [%s]\n", loc, sev, EscapeLine(p.Message), p.Code)
	}
	if rest > 0 {
		fmt.Fprintf(w, "… and %d more; `sessctl check %s` lists them all\n", rest, EscapeLine(path))
	}
}
