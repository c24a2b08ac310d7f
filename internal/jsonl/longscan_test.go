package jsonl

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongScanner: a line fed as a held start and a streamed rest gives
// the Scanner's verdict and captures; a capture over the limit keeps its
// first bytes and is marked clipped; SubFirst is the first byte of the Sub
// member's value (the last one when repeated); the newline is consumed.
func TestLongScanner(t *testing.T) {
	c := &Capture{Top: []string{"type", "message"}, Sub: "message", SubKeys: []string{"role", "content"}}
	big := strings.Repeat(`ab\"c\u00e9 `, 5000)
	lines := []string{
		`{"type":"message","message":{"role":"user","content":"` + big + `"}}`,
		`{"type":"message","message":[1,2],"message":{"role":"user","content":["` + big + `"]}}`,
		`{"type":"x","message":"` + big + `"}`,
		`{"type":"x","message":{"role":"u"}` + big,
		`[1,"` + big + `"]`,
	}
	for _, line := range lines {
		sc := NewScanner(c)
		ok := sc.Scan([]byte(line))
		for _, cut := range []int{0, 7, 100} {
			br := bufio.NewReaderSize(strings.NewReader(line[cut:]+"\nnext\n"), 16)
			ls := NewLongScanner(c, 1000)
			kind, nl, n, err := ls.Scan([]byte(line[:cut]), br)
			require.NoError(t, err)
			assert.True(t, nl)
			assert.Equal(t, int64(len(line)-cut+1), n)
			rest, _ := br.ReadString('\n')
			assert.Equal(t, "next\n", rest, "the newline is consumed, nothing more")
			if !ok {
				assert.NotEqual(t, Object, kind)
				continue
			}
			assert.Equal(t, sc.IsObject(), kind == Object)
			if kind != Object {
				continue
			}
			for k, want := range sc.Sub {
				got := ls.Sub[k]
				if len(want) > 1000 {
					assert.True(t, ls.SubClipped[k])
					assert.True(t, bytes.Equal(want[:1000], got), "clipped capture is the value's start")
				} else {
					assert.False(t, ls.SubClipped[k])
					assert.True(t, bytes.Equal(want, got))
				}
			}
			if m := sc.Top[1]; m != nil {
				assert.Equal(t, m[0], ls.SubFirst)
			} else {
				assert.Zero(t, ls.SubFirst)
			}
		}
	}
}
