package agentcore

import (
	"os"
	"path/filepath"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ListInfo is what `sessctl list` shows of a file, gathered in one pass.
type ListInfo struct {
	ID           string
	FirstMessage string // text of the first user entry
	Messages     int    // user, assistant and tool_result entries
	Entries      int
	Created      time.Time // first timestamp
	Modified     time.Time // latest timestamp
	Problems     map[string]int
}

// ProblemCount is the number of line problems seen.
func (li *ListInfo) ProblemCount() int {
	n := 0
	for _, c := range li.Problems {
		n += c
	}
	return n
}

// ReadListInfo summarises an Agent Core file in one streaming pass.
func ReadListInfo(path string) (*ListInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	li := &ListInfo{ID: trimExt(filepath.Base(path)), Problems: map[string]int{}}
	rd := jsonl.NewReader(f)
	for rd.Next() {
		rec := rd.Record()
		switch rec.Kind {
		case jsonl.Object:
		case jsonl.Blank:
			continue
		default:
			li.Problems[rec.Kind.String()]++
			continue
		}
		li.Entries++
		t := rec.Str("type")
		switch t {
		case TypeUser, TypeAssistant, TypeToolResult:
			li.Messages++
		}
		if ts := rec.Value.Get("timestamp"); ts != nil && ts.Type() == fastjson.TypeNumber {
			// a time list cannot print (year 10000) counts as none
			if at, ok := sessfmt.UnixMilli(ts.GetFloat64()); ok {
				if li.Created.IsZero() || at.Before(li.Created) {
					li.Created = at
				}
				if at.After(li.Modified) {
					li.Modified = at
				}
			}
		}
		if t == TypeUser && li.FirstMessage == "" {
			if c := rec.Value.Get("content"); c != nil {
				li.FirstMessage = text(c.MarshalTo(nil))
			}
		}
	}
	return li, rd.Err()
}

func trimExt(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[:i]
		}
	}
	return name
}
