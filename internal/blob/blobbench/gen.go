// Package blobbench generates synthetic pi-family session files with many
// blob references, for benchmarking the blob mark phase. It is test
// tooling: nothing in sessctl's commands imports it.
package blobbench

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Stats describes a generated tree.
type Stats struct {
	Files int   // session files written
	Bytes int64 // total bytes
	Refs  int64 // blob references written (valid ones)
	Lines int64
}

// words is the vocabulary of the synthetic text: common English words,
// code tokens and JSON-ish punctuation, weighted roughly like real session
// text (real pi/Claude sessions have 'b', the first byte of a ref, at
// about 0.5%; this text has it at about 1%, which is slower for the
// scanner). Near misses of the ref prefix are included.
var words = strings.Fields(`the of and to a in is it you that he was for on are with as I his
they be at one have this from or had by hot word but what some we can out other were all
there when up use your how said an each she which do their time if will way about many then
them write would like so these her long make thing see him two has look more day could go
come did number sound no most people my over know water than call first who may down side
been now find any new work part take get place made live where after back little only round
man year came show every good me give our under name very through just form sentence great
think say help low line differ turn cause much mean before move right boy old too same tell
does set three want air well also play small end put home read hand port large spell add even
land here must big high such follow act why ask men change went light kind off need house
picture try us again animal point mother world near build self earth father func return err
nil if else for range package import type struct string int64 bool true false null const var
:= == != && || ( ) { } [ ] ; , . / // # - + * "path" "content" "text" "role" "user"
"assistant" "toolResult" 2026-02-16T10:20:30.123Z 0 1 2 3 4 5 6 7 8 9 10 42 100 256 1024
sha256 base64 blob blob: sha256: image/png`)

// Generate writes session files under dir until about size bytes exist.
// Files are 1–96 MiB, in per-project folders; 30% of the lines are
// image entries (1–4 refs each) whose data is "blob:sha256:<hex>" drawn from a pool of
// distinct hashes; one line in a thousand is up to 4 MiB long.
func Generate(dir string, size int64, seed uint64) (Stats, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	// A pool of text to slice lines from (fast generation).
	var tb strings.Builder
	for tb.Len() < 32<<20 {
		tb.WriteString(words[r.IntN(len(words))])
		tb.WriteByte(' ')
	}
	text := tb.String()
	pool := make([]string, 200000)
	var raw [32]byte
	for i := range pool {
		for j := range raw {
			raw[j] = byte(r.Uint32())
		}
		pool[i] = hex.EncodeToString(raw[:])
	}
	var st Stats
	for st.Bytes < size {
		want := int64(1<<20 + r.IntN(95<<20))
		if rest := size - st.Bytes; want > rest {
			want = rest
		}
		p := filepath.Join(dir, fmt.Sprintf("-proj-%02d", st.Files%20),
			fmt.Sprintf("2026-02-%02dT10-20-30-123Z_%08x-4f91-7545-8524-5555ce807ae2.jsonl", st.Files%28+1, r.Uint32()))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return st, err
		}
		n, refs, lines, err := writeFile(p, want, r, text, pool)
		st.Files++
		st.Bytes += n
		st.Refs += refs
		st.Lines += lines
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

func writeFile(p string, want int64, r *rand.Rand, text string, pool []string) (n, refs, lines int64, err error) {
	f, err := os.Create(p)
	if err != nil {
		return 0, 0, 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	snippet := func(max int) string {
		l := 1 + r.IntN(max)
		if l > len(text) {
			l = len(text)
		}
		o := r.IntN(len(text) - l + 1)
		return strings.NewReplacer(`"`, `'`, `\`, `/`).Replace(text[o : o+l])
	}
	emit := func(s string) {
		w.WriteString(s)
		n += int64(len(s))
		lines++
	}
	emit(`{"type":"session","version":3,"id":"019e453e-4f91-7545-8524-5555ce807ae2","timestamp":"2026-02-16T10:20:30.123Z","cwd":"/home/u/proj"}` + "\n")
	for n < want {
		id := r.Uint32()
		switch k := r.IntN(1000); {
		case k < 300: // image entries
			var b strings.Builder
			fmt.Fprintf(&b, `{"type":"message","id":"%08x","message":{"role":"user","content":[{"type":"text","text":%q}`, id, snippet(400))
			for i := 0; i <= r.IntN(4); i++ {
				fmt.Fprintf(&b, `,{"type":"image","data":"blob:sha256:%s","mimeType":"image/png"}`, pool[r.IntN(len(pool))])
				refs++
			}
			b.WriteString("]}}\n")
			emit(b.String())
		case k < 700:
			emit(fmt.Sprintf(`{"type":"message","id":"%08x","message":{"role":"assistant","content":[{"type":"text","text":"%s"}]}}`+"\n", id, snippet(4000)))
		case k < 999:
			emit(fmt.Sprintf(`{"type":"message","id":"%08x","message":{"role":"toolResult","content":[{"type":"text","text":"%s"}]}}`+"\n", id, snippet(16000)))
		default: // a long line (0.1%)
			emit(fmt.Sprintf(`{"type":"custom","id":"%08x","data":"%s"}`+"\n", id, snippet(4<<20)))
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return n, refs, lines, err
	}
	return n, refs, lines, f.Close()
}
