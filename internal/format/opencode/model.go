// Package opencode reads OpenCode session storage, read-only.
//
// One OpenCode data directory ($XDG_DATA_HOME/opencode, default
// ~/.local/share/opencode) can hold three storage generations at once, and
// they repeat the same ids:
//
//   - "json": the per-file Storage tree under storage/ (OpenCode ≤ 1.1.x),
//     storage/session/<projectID>/<ses>.json, storage/message/<ses>/<msg>.json,
//     storage/part/<msg>/<prt>.json and storage/project/<id>.json;
//   - "sqlite": the drizzle tables project, session, message and part in
//     opencode*.db (1.2.0 and later), JSON in a data column, ids in columns;
//   - "sqlite-v2": the session_v2 and session_message tables of OpenCode 2
//     when present.
//
// Open finds every generation, Store.Sessions merges them by id and records
// in Session.Sources where each session was found. Store.Load reads the
// messages and parts of one session, and Store.Check reports problems.
// Databases are opened read-only with query_only set, so a running OpenCode
// is never blocked or changed.
package opencode

import (
	"encoding/json"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Generation names a storage generation.
type Generation string

// Storage generations, in increasing order of authority.
const (
	GenJSON     Generation = "json"      // storage/ JSON files
	GenSQLite   Generation = "sqlite"    // session/message/part tables
	GenSQLiteV2 Generation = "sqlite-v2" // session_v2/session_message tables
)

// Tokens are token counters as OpenCode stores them.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	Reasoning  int64 `json:"reasoning"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
}

// Total is input + output + reasoning + cache read + cache write.
func (t Tokens) Total() int64 {
	return t.Input + t.Output + t.Reasoning + t.CacheRead + t.CacheWrite
}

// Revert is a session's pending revert marker (session.revert).
type Revert struct {
	MessageID string `json:"messageID"`
	PartID    string `json:"partID,omitempty"`
	Snapshot  string `json:"snapshot,omitempty"`
}

// Session is one session, merged over the generations that hold it.
type Session struct {
	ID          string    `json:"id"`
	ProjectID   string    `json:"projectID"`
	WorkspaceID string    `json:"workspaceID,omitempty"`
	Directory   string    `json:"directory"`
	Title       string    `json:"title"`
	Slug        string    `json:"slug,omitempty"`
	Version     string    `json:"version,omitempty"`
	ParentID    string    `json:"parentID,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	Archived    time.Time `json:"archived,omitzero"`
	// Messages is the number of messages in the authoritative source.
	Messages int `json:"messages"`
	// Parts is the number of parts in the authoritative source (-1 if not counted).
	Parts  int     `json:"parts"`
	Cost   float64 `json:"cost"`
	Tokens Tokens  `json:"tokens"`
	Revert *Revert `json:"revert,omitempty"`
	// Sources lists every place the session was found, authoritative first:
	// "json", "sqlite:<db file>", "sqlite-v2:<db file>".
	Sources []string `json:"sources"`
	// Location is the file (JSON generation) or database the metadata came from.
	Location string `json:"location"`
	// FileID is, in a JSON store, the id written inside the session file
	// when it differs from the file name (ID, as OpenCode's importer takes
	// it): the session is found by either, and its messages are read from
	// storage/message/<FileID>/ when that folder exists and
	// storage/message/<ID>/ does not.
	FileID string `json:"fileID,omitempty"`
	// messageKey is the storage/message/ folder the messages are read from
	// ("": ID).
	messageKey string
}

// MessageKey is the storage/message/ folder of a JSON-store session: its
// id, or the id inside its file when only that folder holds its messages.
func (s *Session) MessageKey() string {
	if s.messageKey != "" {
		return s.messageKey
	}
	return s.ID
}

// Primary is the authoritative source (Sources[0]).
func (s *Session) Primary() string {
	if len(s.Sources) == 0 {
		return ""
	}
	return s.Sources[0]
}

// Project is an OpenCode project (storage/project/<id>.json or the project table).
type Project struct {
	ID       string `json:"id"`
	Worktree string `json:"worktree"`
	Name     string `json:"name,omitempty"`
	VCS      string `json:"vcs,omitempty"`
}

// MessageError is the error recorded on an assistant message.
type MessageError struct {
	Name    string `json:"name"`
	Message string `json:"message,omitempty"`
}

// Message is one message with its parts, in the shape OpenCode gives it
// (MessageV2.Info) plus what sessctl derives.
type Message struct {
	ID         string        `json:"id"`
	SessionID  string        `json:"sessionID"`
	Role       string        `json:"role"` // user, assistant (V2 adds system, shell, compaction, …)
	ParentID   string        `json:"parentID,omitempty"`
	Created    time.Time     `json:"created"`
	Completed  time.Time     `json:"completed,omitzero"`
	Agent      string        `json:"agent,omitempty"`
	Mode       string        `json:"mode,omitempty"`
	ProviderID string        `json:"providerID,omitempty"`
	ModelID    string        `json:"modelID,omitempty"`
	Summary    bool          `json:"summary,omitempty"` // assistant compaction summary
	Finish     string        `json:"finish,omitempty"`
	Cost       float64       `json:"cost,omitempty"`
	Tokens     *Tokens       `json:"tokens,omitempty"`
	Error      *MessageError `json:"error,omitempty"`
	Parts      []Part        `json:"parts"`
	// Reverted is set when the message lies in the hidden tail of a pending revert.
	Reverted bool `json:"reverted,omitempty"`
	// Raw is the message JSON as stored (the data column or the file).
	Raw json.RawMessage `json:"-"`
}

// Part is one part of a message. Only the fields of its Type are set.
type Part struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	SessionID string `json:"sessionID,omitempty"`
	Type      string `json:"type"`
	// text, reasoning
	Text      string `json:"text,omitempty"`
	Synthetic bool   `json:"synthetic,omitempty"`
	Ignored   bool   `json:"ignored,omitempty"`
	// tool
	Tool      string          `json:"tool,omitempty"`
	CallID    string          `json:"callID,omitempty"`
	Status    string          `json:"status,omitempty"` // pending, running, completed, error
	Title     string          `json:"title,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	Output    string          `json:"output,omitempty"`
	ToolError string          `json:"toolError,omitempty"`
	Compacted bool            `json:"compacted,omitempty"` // output pruned (state.time.compacted)
	ChildID   string          `json:"childSessionID,omitempty"`
	// file
	Mime     string `json:"mime,omitempty"`
	Filename string `json:"filename,omitempty"`
	URL      string `json:"url,omitempty"`
	// step-finish
	Reason string  `json:"reason,omitempty"`
	Cost   float64 `json:"cost,omitempty"`
	Tokens *Tokens `json:"tokens,omitempty"`
	// compaction
	Auto        bool   `json:"auto,omitempty"`
	Overflow    bool   `json:"overflow,omitempty"`
	TailStartID string `json:"tailStartID,omitempty"`
	// subtask, agent
	Agent       string `json:"agent,omitempty"`
	Description string `json:"description,omitempty"`
	Prompt      string `json:"prompt,omitempty"`
	// patch
	Files []string `json:"files,omitempty"`
	// Reverted is set when the part lies in the hidden tail of a pending revert.
	Reverted bool `json:"reverted,omitempty"`
	// Raw is the part JSON as stored.
	Raw json.RawMessage `json:"-"`
}

// Transcript is one session with its messages in order.
type Transcript struct {
	Session  Session   `json:"session"`
	Source   string    `json:"source"` // where the messages were read from
	Messages []Message `json:"messages"`
	// Skipped counts messages or parts that could not be decoded.
	Skipped int `json:"skipped,omitempty"`
}

func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	t, _ := sessfmt.UnixMilli(float64(ms)) // zero when list could not print it
	return t
}
