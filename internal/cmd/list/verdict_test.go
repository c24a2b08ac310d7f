package list_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11 item 11: one verdict. For every listed session of the fixture
// home, list's problem count is the number of errors and warnings check
// reports, and its message count is the number of messages show prints.
func TestListAgreesWithCheckAndShow(t *testing.T) {
	home := copyHome(t)
	e := newEnv(home)
	rows, _ := listJSON(t, e, "--no-cache", "--all")
	require.NotEmpty(t, rows)
	for _, r := range rows {
		c := run(t, e, false, "check", "--json", r.Path)
		var res struct {
			Files []struct {
				Error    string `json:"error"`
				Problems []struct {
					Code, Severity string
				} `json:"problems"`
			} `json:"files"`
		}
		require.NoError(t, json.Unmarshal([]byte(c.out), &res), "%s: %s %s", r.Path, c.out, c.err)
		require.Len(t, res.Files, 1)
		n, codes := 0, map[string]int{}
		for _, p := range res.Files[0].Problems {
			if p.Severity != "info" {
				n++
				codes[p.Code]++
			}
		}
		assert.Equal(t, n, r.Problems, "%s: list's count is check's errors and warnings", r.Path)
		if n > 0 {
			assert.Equal(t, codes, r.ProblemCodes, r.Path)
		}

		// show prints each message under a "── <role> · …" rule.
		s := run(t, e, false, "show", r.Path)
		shown := 0
		if s.code == 0 {
			for _, l := range strings.Split(s.out, "\n") {
				if strings.HasPrefix(l, "── ") {
					shown++
				}
			}
		}
		assert.Equal(t, shown, r.Messages, "%s: list counts what show shows (show exit %d)", r.Path, s.code)
	}
}
