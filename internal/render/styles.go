package render

import (
	"github.com/fatih/color"
	"github.com/sessctl/sessctl/internal/iostreams"
)

// Styles are the colours used in human output. All are no-ops when colour is off.
type Styles struct {
	Dim, Bold, Active, Leaf, Role, Warn, Err, OK *color.Color
}

// NewStyles returns styles enabled exactly when io says colour is on.
func NewStyles(io *iostreams.IOStreams) Styles {
	return Styles{
		Dim:    io.Style(color.Faint),
		Bold:   io.Style(color.Bold),
		Active: io.Style(color.FgGreen),
		Leaf:   io.Style(color.FgGreen, color.Bold),
		Role:   io.Style(color.FgCyan, color.Bold),
		Warn:   io.Style(color.FgYellow),
		Err:    io.Style(color.FgRed),
		OK:     io.Style(color.FgGreen),
	}
}

// Plain returns styles that print text unchanged.
func Plain() Styles {
	c := func() *color.Color { x := color.New(); x.DisableColor(); return x }
	return Styles{Dim: c(), Bold: c(), Active: c(), Leaf: c(), Role: c(), Warn: c(), Err: c(), OK: c()}
}
