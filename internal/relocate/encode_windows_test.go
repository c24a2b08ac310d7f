package relocate

import "testing"

// On Windows both separators count and a volume root ends in one.
func TestUnderWindowsPaths(t *testing.T) {
	cases := []struct {
		p, base string
		want    bool
	}{
		{`C:\a\b`, `C:\a`, true},
		{`C:\a/b`, `C:\a`, true},
		{`C:\a`, `C:\a`, true},
		{`C:\ab`, `C:\a`, false},
		{`C:\x\y`, `C:\`, true},
		{`D:\a`, `C:\a`, false},
	}
	for _, c := range cases {
		if got := Under(c.p, c.base); got != c.want {
			t.Errorf("Under(%q, %q) = %v, want %v", c.p, c.base, got, c.want)
		}
	}
	if m, ok := Map(`C:\a\b\c`, `C:\a`, `D:\z`); !ok || m != `D:\z\b\c` {
		t.Errorf("Map = %q %v", m, ok)
	}
}
