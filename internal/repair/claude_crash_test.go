package repair

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigDamagedClaude makes a ~10 MB Claude Code transcript with damage all
// through it (garbage lines, NUL runs, dangling parents, a torn tail).
func bigDamagedClaude() []byte {
	var b bytes.Buffer
	pad := strings.Repeat("x", 2000)
	parent := "null"
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("%08x-0000-4000-8000-000000000000", i)
		if i%701 == 0 && i > 0 {
			parent = `"deadbeef-0000-4000-8000-000000000000"` // a deleted parent
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"s","version":"2.1.70","type":"user","message":{"role":"user","content":"%s"},"uuid":"%s","timestamp":"%s"}`+"\n",
			parent, pad, id, t0.Add(time.Duration(i)*time.Second).Format("2006-01-02T15:04:05.000Z"))
		parent = `"` + id + `"`
		if i%997 == 0 {
			b.WriteString("garbage line\n")
		}
		if i%1499 == 0 {
			b.Write(bytes.Repeat([]byte{0}, 300))
			b.WriteByte('\n')
		}
	}
	b.WriteString(`{"parentUuid":"torn`)
	return b.Bytes()
}

// TestClaudeRepairSurvivesSIGKILL kills `sessctl repair` on a Claude Code
// transcript at random moments: the file is always exactly the old or
// exactly the new content, and a backup is always the whole old file.
func TestClaudeRepairSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it many times")
	}
	killRepairs(t, buildSessctl(t), bigDamagedClaude(), 11, "relinked")
}
