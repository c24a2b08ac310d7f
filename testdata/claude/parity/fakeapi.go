//go:build ignore

// fakeapi is a stand-in for the Anthropic Messages API, for resuming
// generated transcripts with the real Claude Code CLI offline. Every request
// body is written to <dir>/req-<n>.json (with the path in req-<n>.path); a
// POST to /v1/messages gets a minimal reply (streamed when the request asks
// for it). It listens on 127.0.0.1 only.
//
//	go run testdata/claude/parity/fakeapi.go -addr 127.0.0.1:8765 -dir /tmp/capture
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8765", "listen address (keep it on 127.0.0.1)")
	dir := flag.String("dir", "", "folder for the recorded requests")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-dir is required")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	var n atomic.Int64
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		k := n.Add(1)
		os.WriteFile(filepath.Join(*dir, fmt.Sprintf("req-%04d.json", k)), body, 0o644)
		os.WriteFile(filepath.Join(*dir, fmt.Sprintf("req-%04d.path", k)), []byte(r.Method+" "+r.URL.String()+"\n"), 0o644)
		if r.Method != http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("{}"))
			return
		}
		if filepath.Base(r.URL.Path) == "count_tokens" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"input_tokens":10}`))
			return
		}
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		json.Unmarshal(body, &req)
		if req.Model == "" {
			req.Model = "claude-sonnet-4-5"
		}
		id := fmt.Sprintf("msg_fake%06d", k)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":%q,"type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}`, id, req.Model)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		fl, _ := w.(http.Flusher)
		ev := func(name, data string) {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
			if fl != nil {
				fl.Flush()
			}
		}
		ev("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":%q,"type":"message","role":"assistant","model":%q,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`, id, req.Model))
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`)
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}`)
		ev("message_stop", `{"type":"message_stop"}`)
	})
	log.Printf("fakeapi on %s, recording to %s", *addr, *dir)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
