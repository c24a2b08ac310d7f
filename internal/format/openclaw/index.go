package openclaw

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Entry is one SessionEntry of sessions.json, reduced to what sessctl shows.
type Entry struct {
	Key         string    `json:"key"`
	SessionID   string    `json:"sessionId"`
	UpdatedAt   time.Time `json:"updatedAt,omitzero"`
	SessionFile string    `json:"sessionFile,omitempty"`
	SpawnedBy   string    `json:"spawnedBy,omitempty"`
	ChatType    string    `json:"chatType,omitempty"`
	Channel     string    `json:"channel,omitempty"` // legacy "provider" is read as channel
	Label       string    `json:"label,omitempty"`
	DisplayName string    `json:"displayName,omitempty"`
	Subject     string    `json:"subject,omitempty"`
	Model       string    `json:"model,omitempty"`
	Provider    string    `json:"modelProvider,omitempty"`
	// Token counters as the index stores them (nil when absent).
	InputTokens   *int64 `json:"inputTokens,omitempty"`
	OutputTokens  *int64 `json:"outputTokens,omitempty"`
	TotalTokens   *int64 `json:"totalTokens,omitempty"`
	ContextTokens *int64 `json:"contextTokens,omitempty"`
	CacheRead     *int64 `json:"cacheRead,omitempty"`
	CacheWrite    *int64 `json:"cacheWrite,omitempty"`
	Compactions   int    `json:"compactionCount,omitempty"`
}

// Kind classifies a session key the way `openclaw sessions` does: global,
// unknown, group (groups, channels, rooms) or direct.
func (e Entry) Kind() string {
	switch {
	case e.Key == "global":
		return "global"
	case e.Key == "unknown":
		return "unknown"
	case e.ChatType == "group" || e.ChatType == "channel",
		strings.Contains(e.Key, ":group:"), strings.Contains(e.Key, ":channel:"), strings.Contains(e.Key, ":room:"):
		return "group"
	}
	return "direct"
}

// Name is the label, else the display name, else the subject.
func (e Entry) Name() string {
	for _, s := range []string{e.Label, e.DisplayName, e.Subject} {
		if s != "" {
			return s
		}
	}
	return ""
}

type rawEntry struct {
	SessionID   string          `json:"sessionId"`
	UpdatedAt   json.RawMessage `json:"updatedAt"`
	SessionFile string          `json:"sessionFile"`
	SpawnedBy   string          `json:"spawnedBy"`
	ChatType    string          `json:"chatType"`
	Channel     string          `json:"channel"`
	Provider    string          `json:"provider"`
	Label       string          `json:"label"`
	DisplayName string          `json:"displayName"`
	Subject     string          `json:"subject"`
	Model       string          `json:"model"`
	ModelProv   string          `json:"modelProvider"`
	Input       *int64          `json:"inputTokens"`
	Output      *int64          `json:"outputTokens"`
	Total       *int64          `json:"totalTokens"`
	Context     *int64          `json:"contextTokens"`
	CacheRead   *int64          `json:"cacheRead"`
	CacheWrite  *int64          `json:"cacheWrite"`
	Compactions int             `json:"compactionCount"`
	Origin      *struct {
		Label    string `json:"label"`
		Provider string `json:"provider"`
	} `json:"origin"`
}

func (r *rawEntry) entry(key string) Entry {
	e := Entry{
		Key: key, SessionID: r.SessionID, SessionFile: r.SessionFile, SpawnedBy: r.SpawnedBy,
		ChatType: r.ChatType, Channel: r.Channel, Label: r.Label, DisplayName: r.DisplayName, Subject: r.Subject,
		Model: r.Model, Provider: r.ModelProv,
		InputTokens: r.Input, OutputTokens: r.Output, TotalTokens: r.Total, ContextTokens: r.Context,
		CacheRead: r.CacheRead, CacheWrite: r.CacheWrite, Compactions: r.Compactions,
	}
	if e.Channel == "" {
		e.Channel = r.Provider // load-time migration provider → channel
	}
	if e.Channel == "" && r.Origin != nil {
		e.Channel = r.Origin.Provider
	}
	if e.Label == "" && e.DisplayName == "" && r.Origin != nil {
		e.DisplayName = r.Origin.Label
	}
	var ms float64
	if len(r.UpdatedAt) > 0 && json.Unmarshal(r.UpdatedAt, &ms) == nil && ms > 0 {
		e.UpdatedAt, _ = sessfmt.UnixMilli(ms) // zero when list could not print it
	}
	return e
}

// Index is a parsed sessions.json.
type Index struct {
	Path    string
	Entries []Entry // sorted by key
}

// IndexError reports a sessions.json that OpenClaw cannot parse (it would
// load it as an empty store and overwrite it on the next save).
type IndexError struct {
	Path  string
	Empty bool  // zero bytes (or only whitespace)
	Size  int64 // file size
	Err   error
	// Parsed holds the entries read before the error, for diagnostics only.
	Parsed []Entry
}

func (e *IndexError) Error() string {
	if e.Empty {
		return e.Path + ": empty session store (0 bytes of JSON)"
	}
	return fmt.Sprintf("%s: unparsable session store: %v", e.Path, e.Err)
}

func (e *IndexError) Unwrap() error { return e.Err }

// ReadIndex reads sessions.json as a stream, one entry at a time, so memory
// grows with the entries kept and not with inline snapshots it skips. It
// never writes. A file OpenClaw would fail to parse yields *IndexError.
func ReadIndex(path string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	idx := &Index{Path: path}
	fail := func(err error) (*Index, error) {
		ie := &IndexError{Path: path, Size: fi.Size(), Err: err, Parsed: idx.Entries}
		return nil, ie
	}
	// Zero bytes, or only whitespace: JSON.parse fails on it.
	if b, _ := br.Peek(1); len(b) == 0 {
		return nil, &IndexError{Path: path, Empty: true, Size: fi.Size(), Err: io.ErrUnexpectedEOF}
	}
	dec := json.NewDecoder(br)
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &IndexError{Path: path, Empty: true, Size: fi.Size(), Err: io.ErrUnexpectedEOF}
		}
		return fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fail(fmt.Errorf("top level is %v, not an object", tok))
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fail(err)
		}
		var r rawEntry
		if len(raw) > 0 && raw[0] == '{' {
			if err := json.Unmarshal(raw, &r); err != nil {
				// Valid JSON of the wrong shape: OpenClaw keeps it; so do we, with what decodes.
				r = rawEntry{}
			}
		}
		idx.Entries = append(idx.Entries, r.entry(key))
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	// Trailing garbage makes JSON.parse fail too.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("data after the top-level object")
		}
		return fail(err)
	}
	// A repeated key: JSON.parse keeps the last one.
	last := map[string]int{}
	for i, e := range idx.Entries {
		last[e.Key] = i
	}
	if len(last) != len(idx.Entries) {
		kept := idx.Entries[:0]
		for i, e := range idx.Entries {
			if last[e.Key] == i {
				kept = append(kept, e)
			}
		}
		idx.Entries = kept
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool { return idx.Entries[i].Key < idx.Entries[j].Key })
	return idx, nil
}
