package export_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	exportcmd "github.com/sessctl/sessctl/internal/cmd/export"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/secrets"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

type fakeKey struct{ kind, key string }

func fakeKeys(t *testing.T) []fakeKey {
	f, err := os.Open(filepath.Join("..", "..", "secrets", "testdata", "fakekeys.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fakeKey
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "\t")
		if strings.HasPrefix(v, `"`) { // Go-quoted: the key holds a newline, tab or leading quote
			u, err := strconv.Unquote(v)
			if err != nil {
				t.Fatalf("fakekeys.tsv: %q: %v", sc.Text(), err)
			}
			v = u
		}
		out = append(out, fakeKey{k, v})
	}
	if len(out) < 200 {
		t.Fatalf("%d fake keys", len(out))
	}
	return out
}

func jsonLine(v any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

// corpus writes a session of each agent holding every fake key, one per
// message (user text, and every third one in a tool result), and returns
// the references to export.
func corpus(t *testing.T, keys []fakeKey) map[string]string {
	dir := t.TempDir()
	text := func(i int, k fakeKey) string { return fmt.Sprintf("config %d: %s\nend", i, k.key) }
	refs := map[string]string{}

	var pi strings.Builder
	pi.WriteString(jsonLine(map[string]any{"type": "session", "version": 3, "id": "0199cccc-0000-7000-8000-000000000001", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/w"}))
	parent := any(nil)
	for i, k := range keys {
		id := fmt.Sprintf("e%07d", i)
		var msg map[string]any
		if i%3 == 2 {
			msg = map[string]any{"role": "toolResult", "toolCallId": "t", "toolName": "bash", "content": []any{map[string]any{"type": "text", "text": text(i, k)}}, "isError": false, "timestamp": 1767225600000 + i}
		} else {
			msg = map[string]any{"role": "user", "content": text(i, k), "timestamp": 1767225600000 + i}
		}
		pi.WriteString(jsonLine(map[string]any{"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:01.000Z", "message": msg}))
		parent = id
	}
	refs["pi"] = filepath.Join(dir, "pi.jsonl")
	os.WriteFile(refs["pi"], []byte(pi.String()), 0o600)

	var cl strings.Builder
	parent = nil
	for i, k := range keys {
		id := fmt.Sprintf("11111111-0000-4000-8000-%012d", i)
		var msg map[string]any
		if i%3 == 2 {
			msg = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": text(i, k)}}}
		} else {
			msg = map[string]any{"role": "user", "content": text(i, k)}
		}
		cl.WriteString(jsonLine(map[string]any{"type": "user", "uuid": id, "parentUuid": parent, "sessionId": "c", "cwd": "/w", "timestamp": "2026-01-01T00:00:01.000Z", "message": msg}))
		parent = id
	}
	refs["claude"] = filepath.Join(dir, "11111111-2222-4333-8444-555555555555.jsonl")
	os.WriteFile(refs["claude"], []byte(cl.String()), 0o600)

	var ac strings.Builder
	parent = nil
	for i, k := range keys {
		id := fmt.Sprintf("e%d", i)
		e := map[string]any{"id": id, "type": "user", "timestamp": 1767225600000 + i, "content": text(i, k)}
		if parent != nil {
			e["parentId"] = parent
		}
		if i%3 == 2 {
			e = map[string]any{"id": id, "parentId": parent, "type": "tool_result", "timestamp": 1767225600000 + i, "toolCallId": "t", "output": text(i, k), "success": true}
		}
		ac.WriteString(jsonLine(e))
		parent = id
	}
	refs["agentcore"] = filepath.Join(dir, "agentcore", "ac.jsonl")
	os.MkdirAll(filepath.Dir(refs["agentcore"]), 0o700)
	os.WriteFile(refs["agentcore"], []byte(ac.String()), 0o600)

	// OpenCode JSON storage tree
	oc := filepath.Join(dir, "oc", "storage")
	ses := "ses_7fc0000000aaRedactCorpusX"
	write := func(rel string, v any) {
		p := filepath.Join(oc, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		b, _ := json.Marshal(v)
		os.WriteFile(p, b, 0o600)
	}
	os.MkdirAll(oc, 0o700)
	os.WriteFile(filepath.Join(oc, "migration"), []byte("2\n"), 0o600)
	write("project/global.json", map[string]any{"id": "global", "worktree": "/", "time": map[string]any{"created": 1767225600000, "updated": 1767225600000}})
	write("session/global/"+ses+".json", map[string]any{"id": ses, "slug": "r", "version": "1.1.40", "projectID": "global", "directory": "/w", "title": "corpus", "time": map[string]any{"created": 1767225600000, "updated": 1767225600000}})
	for i, k := range keys {
		mid := fmt.Sprintf("msg_0199f%07dRedactCorpusAb", i)
		write("message/"+ses+"/"+mid+".json", map[string]any{"id": mid, "sessionID": ses, "role": "user", "time": map[string]any{"created": 1767225600000 + i}})
		part := map[string]any{"id": fmt.Sprintf("prt_0199f%07dRedactCorpusAb", i), "sessionID": ses, "messageID": mid, "type": "text", "text": text(i, k)}
		if i%3 == 2 {
			part = map[string]any{"id": fmt.Sprintf("prt_0199f%07dRedactCorpusAb", i), "sessionID": ses, "messageID": mid, "type": "tool", "callID": "c", "tool": "bash",
				"state": map[string]any{"status": "completed", "input": map[string]any{}, "output": text(i, k), "title": "t", "metadata": map[string]any{}, "time": map[string]any{"start": 1, "end": 2}}}
		}
		write("part/"+mid+"/"+part["id"].(string)+".json", part)
	}
	refs["opencode"] = filepath.Join(dir, "oc") + "#" + ses
	return refs
}

// jsonStrings returns every string in a JSON document.
func jsonStrings(t *testing.T, b []byte) []string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("export json: %v", err)
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case string:
			out = append(out, y)
		case []any:
			for _, e := range y {
				walk(e)
			}
		case map[string]any:
			for k, e := range y {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// TestRedactionCorpus: a session of each agent holds a fake key of every
// rule kind; the secret scan (check --secrets) finds every one of them, and
// after export --redact none is left in Markdown, HTML, JSON or pi output.
func TestRedactionCorpus(t *testing.T) {
	keys := fakeKeys(t)
	det, err := secrets.Default()
	if err != nil {
		t.Fatal(err)
	}
	for agent, ref := range corpus(t, keys) {
		t.Run(agent, func(t *testing.T) {
			f, _ := cmdtest.Factory(t, nil)
			s, err := f.Registry.Open(ref, sessfmt.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			found, err := det.Scan(s)
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			// Every message (one key each) has a finding.
			msgs := map[string]bool{}
			for _, p := range found {
				msgs[p.ID] = true
				if strings.Contains(p.Message, "config ") {
					t.Fatalf("a problem holds session text: %q", p.Message)
				}
			}
			if len(msgs) < len(keys) {
				t.Fatalf("the scan found secrets in %d of %d messages", len(msgs), len(keys))
			}
			formats := []string{"markdown", "html", "json"}
			if agent == "pi" {
				formats = append(formats, "pi")
			}
			for _, format := range formats {
				// Without --redact the keys are there (the check can fail).
				f, st := cmdtest.Factory(t, nil)
				plain, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--format", format, ref)
				if err != nil {
					t.Fatal(err)
				}
				f, st = cmdtest.Factory(t, nil)
				out, _, err := cmdtest.Exec(exportcmd.NewCmd(f, nil), st, "--redact", "--format", format, ref)
				if err != nil {
					t.Fatal(err)
				}
				inPlain, left := 0, 0
				for _, k := range keys {
					// The key as each output writes it: as is, HTML-escaped
					// (the page), or in a JSON string, with or without <>&
					// escaped (Go writers differ).
					forms := []string{k.key}
					switch format {
					case "html":
						forms = append(forms, html.EscapeString(k.key))
					case "json", "pi":
						b, _ := json.Marshal(k.key)
						forms = append(forms, string(b[1:len(b)-1]))
						var nb strings.Builder
						enc := json.NewEncoder(&nb)
						enc.SetEscapeHTML(false)
						enc.Encode(k.key)
						js := strings.TrimSuffix(nb.String(), "\n")
						forms = append(forms, js[1:len(js)-1])
					}
					has := func(s string) bool {
						for _, f := range forms {
							if strings.Contains(s, f) {
								return true
							}
						}
						return false
					}
					if has(plain) {
						inPlain++
					}
					if has(out) {
						left++
						t.Errorf("%s %s: key of kind %s left after --redact", agent, format, k.kind)
					}
				}
				if inPlain < len(keys)*3/4 { // markdown and HTML escape <, & and brackets of a few keys
					t.Fatalf("%s %s: only %d of %d keys appear unredacted: the check is blind", agent, format, inPlain, len(keys))
				}
				var texts []string
				switch format {
				case "json":
					texts = jsonStrings(t, []byte(out))
				case "pi":
					for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
						texts = append(texts, jsonStrings(t, []byte(l))...)
					}
				default:
					texts = []string{out}
				}
				for _, x := range texts {
					if fs := det.Find(x); len(fs) > 0 {
						t.Errorf("%s %s: %d secrets still found after --redact (first: %s)", agent, format, len(fs), fs[0].Kind)
						break
					}
				}
				if n := strings.Count(out, "[redacted:"); n < len(keys) {
					t.Errorf("%s %s: %d redaction markers for %d keys", agent, format, n, len(keys))
				}
				t.Logf("%s %s: %d keys, %d in the plain export, %d left after --redact", agent, format, len(keys), inPlain, left)
			}
		})
	}
}
