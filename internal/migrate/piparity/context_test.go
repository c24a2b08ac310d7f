// Package piparity checks that files migrated by package migrate give the
// same buildSessionContext as the files pi 0.73.1 migrated itself
// (testdata/pi/migrate/*.expected.json). It is a separate package so that
// package migrate does not depend on the pi format reader.
package piparity

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/migrate"
	"github.com/sessctl/sessctl/internal/tree"
)

const fixtures = "../../../testdata/pi/migrate"

type expected struct {
	File   *string `json:"file"`
	Throws string  `json:"throws"`
	Cases  []struct {
		Leaf    *string         `json:"leaf"`
		Context json.RawMessage `json:"context"`
	} `json:"cases"`
}

// contextJSON renders the agent-visible part of a context as pi's
// JSON.stringify would.
func contextJSON(ctx *pi.Context) []byte {
	var b bytes.Buffer
	b.WriteString(`{"messages":[`)
	for i, m := range ctx.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
	for _, f := range ctx.Fields {
		if f.Value == nil {
			continue
		}
		k, _ := json.Marshal(f.Key)
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

func TestContextParity(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	n := 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".pi-migrated.jsonl") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(in), ".jsonl")
		t.Run(name, func(t *testing.T) {
			eb, err := os.ReadFile(filepath.Join(fixtures, name+".expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			var exp expected
			if err := json.Unmarshal(eb, &exp); err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			// Migrate a copy through the file path (streaming, safewrite).
			tmp := filepath.Join(t.TempDir(), name+".jsonl")
			if err := os.WriteFile(tmp, src, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := migrate.File(tmp, migrate.FileOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, c := range exp.Cases {
				if c.Leaf != nil {
					continue
				}
				f, err := pi.Open(tmp, pi.Options{Dialect: pi.DialectPi})
				if err != nil {
					t.Fatal(err)
				}
				ctx, err := f.BuildContext(tree.None)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := decode(t, contextJSON(ctx)), decode(t, c.Context); !reflect.DeepEqual(got, want) {
					t.Errorf("context differs from pi's:\n ours %s\n pi   %s", contextJSON(ctx), c.Context)
				}
				n++
			}
		})
	}
	if n == 0 {
		t.Skip("no migration fixtures with contexts")
	}
	t.Logf("%d contexts compared with pi's", n)
}
