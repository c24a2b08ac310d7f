package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// parallelTestFiles are every .jsonl of the repository's testdata (Claude
// Code transcripts and, as further shapes, the other agents' lines), the
// shared corpus's Claude Code transcripts when present, and a generated
// file with every kind of damage and lines longer than the chunks tried.
func parallelTestFiles(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../../../testdata", "testdata", filepath.Join("..", "..", "..", "..", "shared", "corpus", "claude-code")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf")
	parent := ""
	for i := 0; i < 400; i++ {
		u := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		par := "null"
		if parent != "" {
			par = `"` + parent + `"`
		}
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, `{"type":"user","uuid":%q,"parentUuid":%s,"sessionId":"s","cwd":"/w","timestamp":"2025-01-01T00:00:%02d.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"ok"}]},"toolUseResult":{"agentId":"a%d"}}`+"\n", u, par, i%60, i-1, i)
		case 1:
			fmt.Fprintf(&b, `{"type":"assistant","uuid":%q,"parentUuid":%s,"gitBranch":"b%d","message":{"id":"m%d","model":"claude-x","content":[{"type":"thinking","thinking":"%s"},{"type":"tool_use","id":"t%d","name":"Task","input":{}}]}}`+"\r\n", u, par, i%3, i/3, strings.Repeat("x", i*13), i)
		case 2:
			fmt.Fprintf(&b, `{"type":"system","subtype":"compact_boundary","uuid":%q,"parentUuid":null,"logicalParentUuid":%s,"compactMetadata":{"preservedSegment":{}}}`+"\n", u, par)
		case 3:
			fmt.Fprintf(&b, `{"type":"last-prompt","lastPrompt":"","leafUuid":%q,"explicit":true}`+"\n{\"type\":\"custom-title\",\"customTitle\":\"t\\u00e9%d\"}\n[1]\n\n", parent, i)
		case 4:
			fmt.Fprintf(&b, `{"type":"progress","uuid":%q,"parentUuid":%s,"data":"%s"}`+"\n{\"type\":\"summary\",\"leafUuid\":%q,\"summary\":\"s\"}\n{not json\n", u, par, strings.Repeat("é", i*40), u)
		case 5:
			fmt.Fprintf(&b, `{"type":"attachment","uuid":%q,"parentUuid":%s,"isSidechain":true,"isMeta":true,"type":"user"}`+"\n\x00\x00\x00\n", u, par)
		default:
			fmt.Fprintf(&b, `{"type":"user","uuid":%q,"parentUuid":%s,"message":{"content":"hi"},"isCompactSummary":true}`+"\n", u, par)
		}
		parent = u
	}
	// escaped and repeated keys, escaped strings, odd content blocks
	b.WriteString(`{"type":"assistant","uuid":"x\u0041","message":{"id":"a","id":"b","model":"m1","mod\u0065l":"m2","content":["s",{"type":"thinking"},{"typ\u0065":"text","type":"tool_use","id":"i\"d","name":"Agent"}]},"isSidechain":false,"isSidechain":true,"gitBranch":""}` + "\n")
	b.WriteString(`{"type":"assistant","uuid":"t1","message":{"mod\u0065l":"m3","model":"m4","content":[{"type":"thinking"},{"type":"redacted_thinking"}]}}` + "\n")
	b.WriteString(`{"type":"assistant","uuid":"t2","message":{"content":"text","id":""}}` + "\n")
	b.WriteString(`{"type":"user","message":{"content":[1,{"type":"tool_result","tool_use_id":"\u0074x"}]},"toolUseResult":{"agentId":"a","agentId":"b"},"uuid":"u2","parentUuid":"x\u0041"}` + "\n")
	b.WriteString(`{"type":"system","subtype":"compact_boundary","compactMetadata":{"preservedSegment":1,"preservedSegment":{}},"uuid":"u3","timestamp":"2025-01-01T00:00:00+02:00"}` + "\n")
	b.WriteString(`{"\u0074ype":"summary","leafUuid":"l","summary":"s\n"}` + "\n")
	b.WriteString(`{"type":"last-prompt","lastPrompt":"\u00e9","leafUuid":"","explicit":true}` + "\n")
	b.WriteString(`{"type":"user","uuid":"torn"`)
	gen := filepath.Join(t.TempDir(), "gen.jsonl")
	if err := os.WriteFile(gen, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(files, gen)
}

// TestParallelIndexSameAsSerial indexes each file with the serial reader
// and with the parallel pass at chunk sizes from 64 bytes (most lines
// longer than a chunk, read back) to the default, with 1 to 3 workers: the
// File (lines, ids, graph, metadata, problems) must be the same.
func TestParallelIndexSameAsSerial(t *testing.T) {
	files := parallelTestFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files found", len(files))
	}
	defer func() { serialIndex, indexChunkSize, indexWorkers = false, chunkSize, 0 }()
	compared := 0
	for _, p := range files {
		serialIndex = true
		a, errA := Open(p)
		serialIndex = false
		for _, chunk := range []int{64, 300, 4096, 0} {
			for workers := 1; workers <= 3; workers++ {
				indexChunkSize, indexWorkers = chunk, workers
				b, errB := Open(p)
				if (errA == nil) != (errB == nil) {
					t.Fatalf("%s: serial error %v, parallel error %v", p, errA, errB)
				}
				if errA != nil {
					continue
				}
				if !sameIndex(a, b) {
					t.Fatalf("%s (chunk %d, %d workers): serial and parallel index differ", p, chunk, workers)
				}
				b.Close()
				compared++
			}
		}
		if a != nil {
			a.Close()
		}
	}
	t.Logf("%d files, %d comparisons", len(files), compared)
}

// sameIndex compares two indexes of one file field by field, the open
// file handles aside.
func sameIndex(a, b *File) bool {
	x, y := *a, *b
	x.ra, x.closer, y.ra, y.closer = nil, nil, nil, nil
	return reflect.DeepEqual(x, y)
}

// TestUsageFromIndexPass holds the stats events gathered by the index pass
// (sessfmt.OpenOptions.Usage) equal to those of a separate read of the
// file, on every test file, serial and parallel at several chunk sizes.
func TestUsageFromIndexPass(t *testing.T) {
	files := parallelTestFiles(t)
	defer func() { serialIndex, indexChunkSize = false, chunkSize }()
	events := 0
	for _, p := range files {
		var want []sessfmt.UsageEvent
		if err := claudeUsageFile(p, func(ev sessfmt.UsageEvent) error { want = append(want, ev); return nil }); err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{-1, 64, 4096, chunkSize} {
			serialIndex, indexChunkSize = chunk < 0, max(chunk, 0)
			f, err := OpenUsage(p)
			if err != nil {
				continue // Open's own errors are TestParallelIndexSameAsSerial's
			}
			var got []sessfmt.UsageEvent
			f.usage.each(func(ev sessfmt.UsageEvent) error { got = append(got, ev); return nil })
			f.Close()
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s (chunk %d): %d events gathered, %d read", p, chunk, len(got), len(want))
			}
		}
		events += len(want)
	}
	if events == 0 {
		t.Fatal("no usage events in the test files")
	}
	t.Logf("%d files, %d events", len(files), events)
}

// TestExternalParentsCapture holds ExternalParents (capture scan) equal to
// a lookup through the tree parser's uuid on every test file: each file's
// uuids, and as many that are not there, are looked up.
func TestExternalParentsCapture(t *testing.T) {
	looked := 0
	for _, p := range parallelTestFiles(t) {
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		want, all := map[string]bool{}, map[string]bool{}
		rd := jsonl.NewReader(fh)
		for rd.Next() {
			if rec := rd.Record(); rec.Kind == jsonl.Object {
				if u := rec.Str("uuid"); u != "" {
					all[u] = true
					want[u] = true
					want[u+"-absent"] = true
				}
			}
		}
		fh.Close()
		if len(want) == 0 {
			continue
		}
		got, err := ExternalParents(p, want)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, all) {
			t.Fatalf("%s: found %d uuids, want %d", p, len(got), len(all))
		}
		looked += len(want)
	}
	if looked == 0 {
		t.Fatal("no uuids looked up")
	}
}
