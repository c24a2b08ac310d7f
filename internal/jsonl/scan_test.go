package jsonl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

var testCapture = &Capture{Top: []string{"type", "id", "parentId", "message"}, Sub: "message", SubKeys: []string{"role", "model"}}

func TestScannerCaptures(t *testing.T) {
	s := NewScanner(testCapture)
	line := []byte(`{"type":"message","id":"a1","x":{"id":"nested"},"parentId":null,"message":{"role":"user","content":[{"type":"text","text":"hi \"there\"\n"}],"model":"m"},"id":"a2"}`)
	require.True(t, s.Scan(line))
	require.True(t, s.IsObject())
	require.Equal(t, `"message"`, string(s.Top[0]))
	require.Equal(t, `"a2"`, string(s.Top[1]), "a repeated key resolves to its last occurrence")
	require.Equal(t, `null`, string(s.Top[2]))
	require.Equal(t, `"user"`, string(s.Sub[0]))
	require.Equal(t, `"m"`, string(s.Sub[1]))
	for _, bad := range []string{`{"a":NaN}`, `{"a":01}`, `{"a":"\x01"}`, `{"a":"\q"}`, `{"a":1}x`, `{"a":1`, `{"a":+1}`, `[1,]`, `{"a":1,}`, `{"a" 1}`} {
		require.False(t, s.Scan([]byte(bad)), bad)
	}
	for _, good := range []string{`42`, `null`, `[]`, ` {"a":[1,{"b":"\u00e9"}]} `, `"s"`, `-0.5e+10`} {
		require.True(t, s.Scan([]byte(good)), good)
	}
	require.True(t, s.Scan([]byte(`[{"type":"x"}]`)))
	require.False(t, s.IsObject())
}
