package cmdutil

import (
	"runtime/debug"
	"testing"
)

func TestGCPercentYieldsToGOGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)

	t.Setenv("GOGC", "")
	GCPercent(150)
	if got := debug.SetGCPercent(100); got != 150 {
		t.Errorf("without GOGC: percent %d, want 150", got)
	}
	t.Setenv("GOGC", "70")
	GCPercent(150)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: percent %d, want it left at 100", got)
	}
}
