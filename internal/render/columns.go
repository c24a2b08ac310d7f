package render

import (
	"io"
	"strings"
	"text/tabwriter"
)

// Columns writes rows of cells: aligned in columns on a terminal, and as
// tab-separated values when piped (no padding, tabs and line breaks inside a
// cell replaced by spaces), so that scripts can cut fields. Cells must be
// escaped by the caller.
type Columns struct {
	w     io.Writer
	tw    *tabwriter.Writer
	right bool
}

// NewColumns returns a Columns writing to w; tty selects alignment, and
// right aligns the cells to the right on a terminal.
func NewColumns(w io.Writer, tty, right bool) *Columns {
	c := &Columns{w: w, right: right}
	if tty {
		var flags uint
		if right {
			flags = tabwriter.AlignRight
		}
		c.tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', flags)
	}
	return c
}

var tsvCell = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// Row writes one row.
func (c *Columns) Row(cells ...string) {
	if c.tw != nil {
		end := "\n"
		if c.right {
			// The trailing tab makes the last column a cell too, so that
			// right alignment applies to it.
			end = "\t\n"
		}
		io.WriteString(c.tw, strings.Join(cells, "\t")+end)
		return
	}
	for i, s := range cells {
		cells[i] = tsvCell.Replace(s)
	}
	io.WriteString(c.w, strings.Join(cells, "\t")+"\n")
}

// Flush writes what an aligned table holds.
func (c *Columns) Flush() error {
	if c.tw != nil {
		return c.tw.Flush()
	}
	return nil
}
