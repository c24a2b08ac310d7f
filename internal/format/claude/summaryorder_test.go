package claude

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSummaryElsewhereOrder: the summary lines whose leaf is not in the
// file are reported in the order of their leaves, the same on every read
// (they came in a map's order, which changed from run to run).
func TestSummaryElsewhereOrder(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := 0; i < 12; i++ {
		leaf := fmt.Sprintf("%08x-0000-4000-8000-000000000000", (11-i)*0x1111)
		fmt.Fprintf(&b, `{"type":"summary","summary":"s%d","leafUuid":"%s"}`+"\n", i, leaf)
	}
	for i := 0; i < 12; i++ {
		want = append(want, fmt.Sprintf("%08x-0000-4000-8000-000000000000", i*0x1111))
	}
	b.WriteString(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}` + "\n")
	for run := 0; run < 8; run++ {
		f, err := Read(strings.NewReader(b.String()), int64(b.Len()))
		require.NoError(t, err)
		var got []string
		for _, p := range f.Problems() {
			if p.Code == ProbSummaryElse {
				got = append(got, p.UUID)
			}
		}
		require.Equal(t, want, got, "run %d", run)
	}
}
