package problem

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLocated(t *testing.T) {
	store := t.TempDir()
	p := Problem{Code: "orphan-part", Severity: Warning, ID: "ses_1", Message: "part file(s) without a message", Location: filepath.Join(store, "storage", "part", "m1")}
	l := p.Located(store)
	assert.Equal(t, filepath.Join("storage", "part", "m1")+": part file(s) without a message", l.Message, "relative to the store as named")
	assert.Empty(t, l.Location, "folded into the message")
	assert.Equal(t, "ses_1", l.ID)

	// A location outside the store stays whole; one without a location is untouched.
	out := Problem{Message: "m", Location: "/elsewhere/x.json"}
	assert.Equal(t, "/elsewhere/x.json: m", out.Located(store).Message)
	plain := Problem{Message: "m", Line: 3}
	assert.Equal(t, plain, plain.Located(store))

	// A database row location is not a path below the store.
	row := Problem{Message: "m", Location: filepath.Join(store, "opencode.db") + ":part/prt_1"}
	assert.Equal(t, "opencode.db:part/prt_1: m", row.Located(store).Message)
}

func TestStringAndCount(t *testing.T) {
	assert.Equal(t, "line 4: bad (malformed-line)", Problem{Code: MalformedLine, Line: 4, Message: "bad"}.String())
	assert.Equal(t, "x.lock: stale (stale-lock)", Problem{Code: "stale-lock", Message: "stale", Location: "x.lock"}.String())
	e, w, i := Count([]Problem{{Severity: Error}, {Severity: Warning}, {Severity: Warning}, {Severity: Info}})
	assert.Equal(t, [3]int{1, 2, 1}, [3]int{e, w, i})
}
