package discover

import (
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
)

var piHeaderSeeds = []string{
	`{"type":"session","version":3,"id":"019dc7fc-dfb5-7f89-b72a-39b24f93e0ed","timestamp":"2026-04-26T04:12:11.573Z","cwd":"/home/bench/src/sessctl"}`,
	`{"type":"session","id":"a","parentSession":"/p/x.jsonl"}`,
	` { "id" : "a" , "type" : "session" } `,
	`{"type":"session","type":"message","id":"a"}`,
	`{"type":"message","type":"session","id":"a"}`,
	`{"type":"session","id":1,"id":"a"}`,
	`{"type":"session","id":"a","id":1}`,
	`{"type":"session"}`,
	`{"type":"session","id":null}`,
	`{"type":"session","id":"a","cwd":"C:\\w"}`,
	`{"type":"session","id":"a","x":{"y":1}}`,
	`{"type":"session","id":"a","x":[1]}`,
	`{"type":"session","id":"a",}`,
	`{"type":"session","id":"a"} x`,
	`{"type":"title","v":1}`,
	`{"type":"session","id":"a","uuid":"u","sessionId":"s","cwd":"/"}`,
	`{"type":"session","id":"a","cwd":"/{x}"}`,
	`{"type":"session","id":"a","n":01}`,
	`["type","session"]`,
}

// TestPiHeaderLine: lines pi writes are taken without the registry; lines
// whose reading depends on more than their spelling are not.
func TestPiHeaderLine(t *testing.T) {
	want := map[string]bool{
		piHeaderSeeds[0]:  true,
		piHeaderSeeds[1]:  true,
		piHeaderSeeds[2]:  true,
		piHeaderSeeds[3]:  false, // the last "type" counts
		piHeaderSeeds[4]:  true,
		piHeaderSeeds[5]:  false, // the first "id" counts
		piHeaderSeeds[6]:  true,
		piHeaderSeeds[7]:  false,
		piHeaderSeeds[8]:  false,
		piHeaderSeeds[9]:  false, // a backslash: the registry reads it
		piHeaderSeeds[10]: false, // nested values: the registry
		piHeaderSeeds[11]: false,
		piHeaderSeeds[12]: false, // not JSON
		piHeaderSeeds[13]: false,
		piHeaderSeeds[14]: false, // oh-my-pi's title slot: the registry
		piHeaderSeeds[15]: true,  // a header wins over Claude Code's keys
		piHeaderSeeds[16]: false,
		piHeaderSeeds[17]: false,
		piHeaderSeeds[18]: false,
	}
	for line, w := range want {
		if got := piHeaderLine([]byte(line + "\n")); got != w {
			t.Errorf("piHeaderLine(%s) = %v, want %v", line, got, w)
		}
	}
}

// FuzzPiHeaderLine: a first line piHeaderLine takes for a pi header is
// one the registry's sniff gives pi with a header's score, as headerSaysPi
// asked it before, whatever the path (outside the claims headerSaysPi
// rules out first).
func FuzzPiHeaderLine(f *testing.F) {
	for _, s := range piHeaderSeeds {
		f.Add(s, "/h/.pi/agent/sessions/x/a.jsonl")
	}
	f.Add(piHeaderSeeds[0], "/h/.claude/projects/x/a.jsonl")
	f.Add(piHeaderSeeds[0], "/h/.pi/sessions/a.jsonl.zst")
	reg := newRegistry(envOf(map[string]string{"HOME": f.TempDir()}))
	f.Fuzz(func(t *testing.T, line, path string) {
		line1 := []byte(line + "\n")
		if !piHeaderLine(line1) {
			return
		}
		name, score := reg.SniffHead(path, line1)
		if name != "pi" || score < pi.SniffHeader {
			t.Fatalf("%s at %s: piHeaderLine takes it, the registry sniffs %q (%d)", line, path, name, score)
		}
	})
}
