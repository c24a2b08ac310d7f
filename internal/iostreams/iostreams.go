// Package iostreams carries the standard streams of a command together with
// the terminal facts that decide how output looks: whether stdout is a
// terminal, whether colour is on, and the terminal width. Tests build one with
// Test and read what was written from buffers.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strconv"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

// ColorMode is the value of --color.
type ColorMode string

// Colour modes.
const (
	ColorAuto   ColorMode = "auto"
	ColorAlways ColorMode = "always"
	ColorNever  ColorMode = "never"
)

// IOStreams is the set of streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdoutTTY bool
	stderrTTY bool
	color     bool
	width     int
	quiet     bool
	getenv    func(string) string
}

// System returns IOStreams for the process's standard streams.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, getenv: os.Getenv}
	s.stdoutTTY = isTerminal(os.Stdout)
	s.stderrTTY = isTerminal(os.Stderr)
	if s.stdoutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			s.width = w
		}
	}
	if s.width == 0 {
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
			s.width = c
		}
	}
	s.SetColorMode(ColorAuto)
	return s
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Test returns IOStreams writing to buffers, not a terminal, colour off.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	s := &IOStreams{In: in, Out: out, ErrOut: errOut, width: 80, getenv: func(string) string { return "" }}
	return s, in, out, errOut
}

// SetColorMode decides colour once: --color always/never win; in auto mode
// NO_COLOR (non-empty) turns it off, CLICOLOR_FORCE (≠ "0") turns it on,
// CLICOLOR=0 or TERM=dumb turn it off, else colour follows stdout being a
// terminal.
func (s *IOStreams) SetColorMode(m ColorMode) {
	env := s.getenv
	if env == nil {
		env = func(string) string { return "" }
	}
	switch m {
	case ColorAlways:
		s.color = true
	case ColorNever:
		s.color = false
	default:
		switch {
		case env("NO_COLOR") != "":
			s.color = false
		case env("CLICOLOR_FORCE") != "" && env("CLICOLOR_FORCE") != "0":
			s.color = true
		case env("CLICOLOR") == "0", env("TERM") == "dumb":
			s.color = false
		default:
			s.color = s.stdoutTTY
		}
	}
}

// IsStdoutTTY reports whether stdout is a terminal (tables, relative times,
// escaping of control characters).
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal (progress indicators).
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStdoutTTY overrides terminal detection (tests).
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// SetStderrTTY overrides terminal detection (tests).
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// ColorEnabled reports whether output may be coloured.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// SetColorEnabled overrides the colour decision (tests).
func (s *IOStreams) SetColorEnabled(v bool) { s.color = v }

// TerminalWidth is the width of the terminal, or 80 when unknown.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	return 80
}

// SetWidth overrides the terminal width (tests).
func (s *IOStreams) SetWidth(w int) { s.width = w }

// SetQuiet makes Progressf and Warnf-level chatter silent.
func (s *IOStreams) SetQuiet(q bool) { s.quiet = q }

// Quiet reports whether -q was given.
func (s *IOStreams) Quiet() bool { return s.quiet }

// Style returns a colour that is enabled exactly when the streams say so,
// whatever NO_COLOR did to fatih/color's globals.
func (s *IOStreams) Style(attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if s.color {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return c
}
