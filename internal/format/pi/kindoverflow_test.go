package pi

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/problem"
)

// kindOverflowNormal has a tool call without a result and a compaction
// keeping an entry off its path.
const kindOverflowNormal = `{"type":"session","version":3,"id":"00000000-0000-7000-8000-00000000b001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"go","timestamp":1767225601000}}
{"type":"message","id":"m2b","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"other branch"}],"stopReason":"stop","timestamp":1767225602000}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"bash","arguments":{}}],"stopReason":"toolUse","timestamp":1767225603000}}
{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":"next","timestamp":1767225604000}}
{"type":"compaction","id":"c1","parentId":"m3","timestamp":"2026-01-01T00:00:05.000Z","summary":"s","firstKeptEntryId":"m2b","tokensBefore":10}
{"type":"message","id":"m4","parentId":"c1","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"after","timestamp":1767225606000}}
`

// TestKindTableOverflow: a file with more distinct types than the kind
// table holds, checked first, does not change a later file's check
// problems. The table is process-wide, so each scenario runs in a child
// process: one checks the normal file in a fresh process, the other checks
// the overflowing file first and the normal one after it (checking the
// normal file first in the same process would register its pairs early).
func TestKindTableOverflow(t *testing.T) {
	if mode := os.Getenv("SESSCTL_KIND_OVERFLOW_CHILD"); mode != "" {
		kindOverflowChild(t, mode, os.Getenv("SESSCTL_KIND_OVERFLOW_DIR"))
		return
	}
	if testing.Short() {
		t.Skip("writes a 16,500-type file")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(kindOverflowNormal), 0o644); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(`{"type":"session","version":3,"id":"00000000-0000-7000-8000-00000000a001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
	parent := "null"
	for i := range maxKinds + 200 { // distinct types and message roles
		id := fmt.Sprintf(`"a%d"`, i)
		if i%2 == 0 {
			fmt.Fprintf(&sb, `{"type":"exotic_%d","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z"}`+"\n", i, id, parent)
		} else {
			fmt.Fprintf(&sb, `{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"r%d","content":"x"}}`+"\n", id, parent, i)
		}
		parent = id
	}
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(mode string) []problem.Problem {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKindTableOverflow$", "-test.v")
		cmd.Env = append(os.Environ(), "SESSCTL_KIND_OVERFLOW_CHILD="+mode, "SESSCTL_KIND_OVERFLOW_DIR="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestKindTableOverflow") {
			t.Fatalf("child %s: %v\n%s", mode, err, out)
		}
		b, err := os.ReadFile(filepath.Join(dir, mode+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var ps []problem.Problem
		if err := json.Unmarshal(b, &ps); err != nil {
			t.Fatal(err)
		}
		return ps
	}
	want := run("fresh")
	codes := map[string]bool{}
	for _, p := range want {
		codes[p.Code] = true
	}
	if !codes[CodeToolCallNoResult] || !codes[CodeCompactionKeptOff] {
		t.Fatalf("the normal file does not exercise the rules: %v", want)
	}
	if got := run("after"); !reflect.DeepEqual(got, want) {
		t.Errorf("check b.jsonl after a.jsonl filled the kind table =\n%v\nwant (fresh process)\n%v", got, want)
	}
}

// kindOverflowChild checks b.jsonl in dir (after a.jsonl when mode is
// "after") and writes its problems to dir/<mode>.json.
func kindOverflowChild(t *testing.T, mode, dir string) {
	check := func(p string) []problem.Problem {
		t.Helper()
		f, err := Open(filepath.Join(dir, p), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f.Check(CheckOptions{})
	}
	if mode == "after" {
		check("a.jsonl")
		if n := len(kindTable()); n != maxKinds {
			t.Fatalf("kind table holds %d pairs, want it full (%d)", n, maxKinds)
		}
		// A pair new after the overflow never gets a known class.
		if k := kindOf("exotic_new", ""); k != kindOverflow || kindTable()[k].class != 0 {
			t.Errorf("overflow type got kind %d class %d", k, kindTable()[k].class)
		}
		if k := kindOf("message", "newRole"); k != kindOverflowRole || kindTable()[k].class != kcMessage {
			t.Errorf("overflow role got kind %d class %d", k, kindTable()[k].class)
		}
	}
	b, err := json.Marshal(check("b.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, mode+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
