package render

import (
	"bytes"
	"testing"
)

func TestColumnsPipedIsTSV(t *testing.T) {
	var b bytes.Buffer
	c := NewColumns(&b, false, true)
	c.Row("A", "LONG HEADER")
	c.Row("x\ty", "line\nbreak")
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "A\tLONG HEADER\nx y\tline break\n"
	if b.String() != want {
		t.Errorf("piped: got %q, want %q", b.String(), want)
	}
}

func TestColumnsTerminalAligned(t *testing.T) {
	var b bytes.Buffer
	c := NewColumns(&b, true, true)
	c.Row("A", "LONG HEADER")
	c.Row("xyz", "1")
	c.Flush()
	want := "    A  LONG HEADER\n  xyz            1\n"
	if b.String() != want {
		t.Errorf("terminal: got %q, want %q", b.String(), want)
	}
	b.Reset()
	c = NewColumns(&b, true, false)
	c.Row("A", "LONG HEADER")
	c.Row("xyz", "1")
	c.Flush()
	want = "A    LONG HEADER\nxyz  1\n"
	if b.String() != want {
		t.Errorf("terminal, left: got %q, want %q", b.String(), want)
	}
}
