package jsonl

import (
	"encoding/json"
	"fmt"
	"strings"
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
	for _, good := range []string{`42`, `null`, `[]`, ` {"a":[1,{"b":"\u00e9"}]} `, `"s"`, `-0.5e+10`,
		`{"cost":{"input":0.014361,"total":1.040155},"n":[1.5,2e3,31.25E-2,4,9.0]}`, `[1.5]`, `{"a":7.25}`, `{"a":[12e1]}`} {
		require.True(t, s.Scan([]byte(good)), good)
	}
	require.True(t, s.Scan([]byte(`[{"type":"x"}]`)))
	require.False(t, s.IsObject())
}

// TestStringScanWordBoundaries runs the word-at-a-time string scan over
// strings holding one or two chosen bytes at every position of the first
// two words (and the tail), alone, as a key and as a member's value,
// comparing with encoding/json: the borrow arithmetic of special must find
// the first '"', '\\' or control byte wherever it sits, with any byte before
// or after it.
func TestStringScanWordBoundaries(t *testing.T) {
	interesting := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', 0x23, '/', 'n', 'u', 0x5b, '\\', 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xdf, 0xe0, 0xff}
	s := NewScanner(nil)
	buf, obj := make([]byte, 0, 40), make([]byte, 0, 48)
	n := 0
	for length := 1; length <= 19; length++ {
		for p1 := 0; p1 < length; p1++ {
			for p2 := p1; p2 < length; p2++ {
				for _, c1 := range interesting {
					for _, c2 := range interesting {
						buf = append(buf[:0], '"')
						for k := 0; k < length; k++ {
							buf = append(buf, 'a'+byte(k%26))
						}
						buf[1+p1] = c1
						if p2 > p1 {
							buf[1+p2] = c2
						}
						buf = append(buf, '"')
						if got, want := s.Scan(buf), json.Valid(buf); got != want {
							t.Fatalf("Scan(%q) = %v, json.Valid = %v", buf, got, want)
						}
						// The same string as a key and as a member's value
						// (value reads their first words itself).
						key := append(append(append(obj[:0], '{'), buf...), ":1}"...)
						if got, want := s.Scan(key), json.Valid(key); got != want {
							t.Fatalf("Scan(%q) = %v, json.Valid = %v", key, got, want)
						}
						member := append(append(append(obj[:0], `{"k":`...), buf...), '}')
						if got, want := s.Scan(member), json.Valid(member); got != want {
							t.Fatalf("Scan(%q) = %v, json.Valid = %v", member, got, want)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d strings", n)
}

// TestStringMemberBoundaries puts one byte of interest, or an escape, at
// every position of member values of 1-100 bytes (and of array elements
// and keys), followed by a member or not: stringShort's five words and the point at
// which scanStringMember goes on (the word holding the first byte that
// needs a look) meet every byte. Held to encoding/json and to baseScanner.
func TestStringMemberBoundaries(t *testing.T) {
	// A control byte followed by what would go on as valid JSON if it
	// ended the string ("\x01,\"z\":\"", or as a key "\x01:1,\"z").
	interesting := []string{"\x00", "\x1f", "\"", "\\", `\"`, `\\`, `\n`, `\u00e9`, `\u12`, `\q`, "\x7f", "\xe9", `\`, "\x01,\"z\":\"", "\x1f\\\",\"z\":\"", "\x01:1,\"z"}
	n := 0
	for _, length := range append(seq(1, 48), 56, 63, 64, 65, 80, 100) {
		for p := 0; p < length; p++ {
			for _, c := range interesting {
				body := []byte(strings.Repeat("a", length))
				body = append(append(append([]byte{}, body[:p]...), c...), body[p:]...)
				for _, line := range [][]byte{
					append(append([]byte(`{"k":"`), body...), `"}`...),
					append(append([]byte(`{"k":"`), body...), `","type":"x","id":"0123456789abcdef0123456789abcdef0123456789abcdef"}`...),
					append(append([]byte(`["`), body...), `",1]`...),
					append(append([]byte(`{"`), body...), `":1}`...), // as a key
				} {
					if got, want := NewScanner(nil).Scan(line), json.Valid(line); got != want {
						t.Fatalf("Scan(%q) = %v, json.Valid = %v", line, got, want)
					}
					checkBase(t, line)
					n++
				}
			}
		}
	}
	t.Logf("%d lines", n)
}

// seq returns the integers from a to b.
func seq(a, b int) []int {
	var out []int
	for k := a; k <= b; k++ {
		out = append(out, k)
	}
	return out
}

// A captured name is matched by what a key decodes to, as JSON.parse reads
// it: the escaped key "a\\b" is a, backslash, b, not the name of four bytes
// a, backslash, backslash, b (its raw bytes); and a key table holds any
// number of short names (it held the first 255; a later one was captured
// only near the end of a line, where the slow path looks keys up).
func TestCaptureByDecodedKeyAndManyNames(t *testing.T) {
	s := NewScanner(&Capture{Top: []string{`a\\b`, `a\b`}})
	if !s.Scan([]byte(`{"a\\b":1,"x":2}`)) {
		t.Fatal("invalid")
	}
	if s.Top[0] != nil || string(s.Top[1]) != "1" {
		t.Fatalf("captures %q, want none for the raw name and 1 for the decoded one", s.Top)
	}
	var names []string
	for i := range 300 {
		names = append(names, fmt.Sprintf("k%03d", i))
	}
	s = NewScanner(&Capture{Top: names})
	line := `{"k299":7,"pad":"` + strings.Repeat("x", 64) + `"}`
	if !s.Scan([]byte(line)) || string(s.Top[299]) != "7" {
		t.Fatalf("k299 captured %q, want 7", s.Top[299])
	}
}
