package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fastjson"
)

// parityDir holds the cases the real Claude Code CLI resumed (see
// testdata/claude/parity/README.md).
const parityDir = "../../../testdata/claude/parity"

type parityCase struct {
	Name    string   `json:"name"`
	Session string   `json:"session"`
	Note    string   `json:"note"`
	Files   []string `json:"files"`
}

type parityExpect struct {
	Case     string `json:"case"`
	Exit     int    `json:"exit"`
	Found    bool   `json:"requestFound"`
	Sent     []int  `json:"sent"`
	Messages []struct {
		Role   string `json:"role"`
		Blocks []struct {
			Type string `json:"type"`
			Tags []int  `json:"tags"`
		} `json:"blocks"`
	} `json:"messages"`
}

func loadParityCases(t *testing.T) []parityCase {
	b, err := os.ReadFile(filepath.Join(parityDir, "cases.json"))
	require.NoError(t, err)
	var cases []parityCase
	require.NoError(t, json.Unmarshal(b, &cases))
	return cases
}

var parityTag = regexp.MustCompile(`\[\[L(\d+)\]\]`)

// TestParityClaudeCode compares the context sessctl rebuilds (show --json:
// Walk from the default leaf, turns with their sent marks) with the
// conversation the real Claude Code 2.1.330 CLI sent when it resumed each
// case: the same lines in the same order, and for every sent line the same
// number of content blocks (blocks Claude Code drops are marked dropped).
func TestParityClaudeCode(t *testing.T) {
	cases := loadParityCases(t)
	require.GreaterOrEqual(t, len(cases), 150)
	equal := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(parityDir, "expect", c.Name+".json"))
			require.NoError(t, err)
			var e parityExpect
			require.NoError(t, json.Unmarshal(b, &e))
			require.Equal(t, 0, e.Exit, "the CLI failed on this case when it was captured")
			require.True(t, e.Found, "no request was captured")
			f, err := Open(filepath.Join(parityDir, "cases", c.Name, c.Session+".jsonl"))
			require.NoError(t, err)
			defer f.Close()
			p, err := f.Walk("", false)
			require.NoError(t, err)
			sent := []int{}
			dropped := map[[2]int]bool{}
			err = f.EachTurn(p, func(tu *Turn) error {
				if tu.Sent {
					sent = append(sent, tu.SentLines()...)
				}
				for _, d := range tu.Dropped {
					dropped[[2]int{tu.LineOf(d.UUID), d.Block}] = true
				}
				return nil
			})
			require.NoError(t, err)
			require.Equal(t, e.Sent, sent, "%s: lines sent", c.Note)
			// content blocks per sent line
			want := map[int]int{}
			for _, m := range e.Messages {
				for _, bl := range m.Blocks {
					if len(bl.Tags) > 0 {
						want[bl.Tags[0]]++
					}
				}
			}
			var ps fastjson.Parser
			for _, ln := range sent {
				raw, err := f.RawLine(ln)
				require.NoError(t, err)
				raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
				v, err := ps.ParseBytes(raw)
				require.NoError(t, err)
				n := 0
				cv := v.Get("message", "content")
				if cv != nil && cv.Type() == fastjson.TypeArray {
					for k, bl := range cv.GetArray() {
						if dropped[[2]int{ln, k}] || !parityTag.Match(bl.MarshalTo(nil)) {
							continue
						}
						n++
					}
				} else if cv != nil {
					n = 1
				}
				require.Equal(t, want[ln], n, "line %d: content blocks sent", ln)
			}
			equal++
		})
	}
	t.Log(fmt.Sprintf("%d of %d cases equal to Claude Code 2.1.330", equal, len(cases)))
}
