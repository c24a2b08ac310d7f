package list

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/stretchr/testify/require"
)

// TestWriteTSVAsFormatted: writeTSV's rows, appended field by field, are
// the rows fmt gives for the same fields through tsvField (tabs, newlines
// and carriage returns turned into spaces, invalid UTF-8 into U+FFFD).
func TestWriteTSVAsFormatted(t *testing.T) {
	mod := time.Date(2026, 3, 4, 5, 6, 7, 891e6, time.FixedZone("x", 3600))
	fields := []string{"", "plain", "tab\there", "line\nbreak\r\n", "\t", "bad \xff utf8\t", "é\u2028✓", "\x00ctl"}
	var ss []*discover.Session
	for i, f := range fields {
		ss = append(ss, &discover.Session{Agent: "pi", ID: f + "id", Title: f, Cwd: "/w/" + f, Messages: i * 7, Bytes: int64(i) << 33,
			Modified: mod.Add(time.Duration(i) * time.Hour), Problems: i % 3, Path: "/p/" + f + ".jsonl"})
	}
	var want bytes.Buffer
	for _, s := range ss {
		fmt.Fprintf(&want, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n",
			s.Agent, tsvField(s.ID), tsvField(s.Title), tsvField(s.Cwd), s.Messages, s.Bytes,
			s.Modified.UTC().Format(time.RFC3339), status(s), tsvField(s.Path))
	}
	var got bytes.Buffer
	require.NoError(t, writeTSV(&got, ss))
	require.Equal(t, want.String(), got.String())
}
