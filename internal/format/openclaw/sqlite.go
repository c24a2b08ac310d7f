package openclaw

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ErrNoEvents is returned by Export for a session without transcript events.
var ErrNoEvents = errors.New("session has no transcript events")

// AgentDB is an agents/<id>/agent/openclaw-agent.sqlite opened read-only.
type AgentDB struct {
	Path      string
	Immutable bool
	db        *sql.DB
	tables    map[string]map[string]bool
}

func dsn(path string, immutable bool) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	q := "mode=ro"
	if immutable {
		q += "&immutable=1"
	}
	return "file:" + esc + "?" + q + "&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
}

// OpenAgentDB opens an agent database read-only: with normal locking when a
// -wal or -journal file exists (a gateway may be writing: its WAL is read and
// it is never blocked), with immutable=1 otherwise (no side files created).
func OpenAgentDB(path string) (*AgentDB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	immutable := !fileExists(abs+"-wal") && !fileExists(abs+"-journal")
	sdb, err := sql.Open("sqlite", dsn(abs, immutable))
	if err != nil {
		return nil, err
	}
	sdb.SetMaxOpenConns(1)
	d := &AgentDB{Path: abs, Immutable: immutable, db: sdb, tables: map[string]map[string]bool{}}
	for _, t := range []string{"session_nodes", "session_windows", "transcript_events"} {
		rows, err := sdb.Query(`SELECT name FROM pragma_table_info(?)`, t)
		if err != nil {
			sdb.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		cols := map[string]bool{}
		for rows.Next() {
			var c string
			if rows.Scan(&c) == nil {
				cols[c] = true
			}
		}
		rows.Close()
		if len(cols) > 0 {
			d.tables[t] = cols
		}
	}
	if d.tables["transcript_events"] == nil || d.tables["session_windows"] == nil {
		sdb.Close()
		return nil, fmt.Errorf("%s: not an OpenClaw agent database (no session_windows/transcript_events)", path)
	}
	return d, nil
}

// Close closes the database.
func (d *AgentDB) Close() error { return d.db.Close() }

func (d *AgentDB) col(table, alias, c string) string {
	if d.tables[table][c] {
		return alias + "." + c
	}
	return "NULL"
}

// DBSession is one transcript generation (a session_windows row) with its
// session key's node.
type DBSession struct {
	SessionID   string    `json:"sessionId"`
	Key         string    `json:"key"`
	Reason      string    `json:"reason,omitempty"` // initial, reset, rollover, fork, …
	PreviousID  string    `json:"previousSessionId,omitempty"`
	Current     bool      `json:"current"` // the key's current session
	ChatType    string    `json:"chatType,omitempty"`
	Channel     string    `json:"channel,omitempty"`
	Model       string    `json:"model,omitempty"`
	Provider    string    `json:"modelProvider,omitempty"`
	Label       string    `json:"label,omitempty"`
	DisplayName string    `json:"displayName,omitempty"`
	SpawnedBy   string    `json:"spawnedBy,omitempty"`
	Created     time.Time `json:"created,omitzero"`
	Updated     time.Time `json:"updated,omitzero"`
	Archived    time.Time `json:"archived,omitzero"`
	Events      int       `json:"events"`
	// Conversations are the chat conversations the generation belongs to
	// (session_conversations joined with conversations; OpenClaw 2026.9).
	Conversations []DBConversation `json:"conversations,omitempty"`
	// Members are the identity ids added to the logical session
	// (session_members; OpenClaw 2026.9).
	Members []string `json:"members,omitempty"`
}

// DBConversation is one conversation of a session generation.
type DBConversation struct {
	ID      string `json:"id"`
	Role    string `json:"role"`    // primary, participant, related
	Channel string `json:"channel"` // telegram, slack, …
	Kind    string `json:"kind"`    // direct, group, channel
	Label   string `json:"label,omitempty"`
}

func ms(v sql.NullInt64) time.Time {
	if !v.Valid || v.Int64 <= 0 {
		return time.Time{}
	}
	t, _ := sessfmt.UnixMilli(float64(v.Int64)) // zero when list could not print it
	return t
}

// Sessions lists every transcript generation, newest update first.
func (d *AgentDB) Sessions() ([]DBSession, error) {
	counts := map[string]int{}
	rows, err := d.db.Query(`SELECT session_id, COUNT(*) FROM transcript_events GROUP BY session_id`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			rows.Close()
			return nil, err
		}
		counts[id] = n
	}
	rows.Close()
	hasNodes := d.tables["session_nodes"] != nil
	w := func(c string) string { return d.col("session_windows", "w", c) }
	n := func(c string) string {
		if !hasNodes {
			return "NULL"
		}
		return d.col("session_nodes", "n", c)
	}
	q := "SELECT w.session_id, w.session_key, " + strings.Join([]string{
		w("reason"), w("previous_session_id"), n("current_session_id"), w("chat_type"), w("channel"), w("model"), w("model_provider"),
		n("label"), "COALESCE(" + w("display_name") + ", " + n("display_name") + ")", "COALESCE(" + w("spawned_by") + ", " + n("spawned_by") + ")",
		w("created_at"), w("updated_at"), n("archived_at"),
	}, ", ") + " FROM session_windows w"
	if hasNodes {
		q += " LEFT JOIN session_nodes n ON n.session_key = w.session_key"
	}
	q += " ORDER BY " + w("updated_at") + " DESC, w.session_id"
	rows, err = d.db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DBSession
	for rows.Next() {
		var s DBSession
		var reason, prev, cur, chat, channel, model, prov, label, disp, spawned sql.NullString
		var created, updated, archived sql.NullInt64
		if err := rows.Scan(&s.SessionID, &s.Key, &reason, &prev, &cur, &chat, &channel, &model, &prov, &label, &disp, &spawned, &created, &updated, &archived); err != nil {
			return nil, err
		}
		s.Reason, s.PreviousID, s.ChatType, s.Channel = reason.String, prev.String, chat.String, channel.String
		s.Model, s.Provider, s.Label, s.DisplayName, s.SpawnedBy = model.String, prov.String, label.String, disp.String, spawned.String
		s.Current = cur.Valid && cur.String == s.SessionID
		s.Created, s.Updated, s.Archived = ms(created), ms(updated), ms(archived)
		s.Events = counts[s.SessionID]
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, d.addMembership(out)
}

// hasTable reports whether the database has the table.
func (d *AgentDB) hasTable(name string) bool {
	var n int
	err := d.db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return err == nil && n > 0
}

// addMembership fills the conversations and members of each session, from
// the tables OpenClaw 2026.9 added (nothing when they are absent).
func (d *AgentDB) addMembership(ss []DBSession) error {
	if len(ss) == 0 {
		return nil
	}
	byID := map[string][]int{}
	byKey := map[string][]int{}
	for i := range ss {
		byID[ss[i].SessionID] = append(byID[ss[i].SessionID], i)
		byKey[ss[i].Key] = append(byKey[ss[i].Key], i)
	}
	if d.hasTable("session_conversations") && d.hasTable("conversations") {
		rows, err := d.db.Query(`SELECT sc.session_id, sc.role, c.conversation_id, c.channel, c.kind, c.label
			FROM session_conversations sc JOIN conversations c ON c.conversation_id = sc.conversation_id
			ORDER BY sc.session_id, sc.first_seen_at, c.conversation_id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id string
			var c DBConversation
			var label sql.NullString
			if err := rows.Scan(&id, &c.Role, &c.ID, &c.Channel, &c.Kind, &label); err != nil {
				rows.Close()
				return err
			}
			c.Label = label.String
			for _, i := range byID[id] {
				ss[i].Conversations = append(ss[i].Conversations, c)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if d.hasTable("session_members") {
		rows, err := d.db.Query(`SELECT session_key, identity_id FROM session_members ORDER BY session_key, added_at, identity_id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var key, who string
			if err := rows.Scan(&key, &who); err != nil {
				return err
			}
			for _, i := range byKey[key] {
				ss[i].Members = append(ss[i].Members, who)
			}
		}
		return rows.Err()
	}
	return nil
}

// Events streams a session's transcript events (pi JSONL lines) in seq order.
func (d *AgentDB) Events(sessionID string, fn func(seq int64, line []byte) error) error {
	rows, err := d.db.Query(`SELECT seq, event_json FROM transcript_events WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var line []byte
		if err := rows.Scan(&seq, &line); err != nil {
			return err
		}
		if err := fn(seq, line); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Export writes a session's events to w as a pi JSONL transcript: one event
// per line, byte for byte, except that an event spread over several lines
// is compacted onto one. When the first event is not a pi "session" header,
// a version-3 header {"type":"session","version":3,"id","timestamp","cwd":""}
// is written first, because pi treats a file without one as empty. It
// returns the number of lines written.
func (d *AgentDB) Export(sessionID string, w io.Writer) (int, error) {
	var created time.Time
	var c sql.NullInt64
	if err := d.db.QueryRow(`SELECT `+d.col("session_windows", "w", "created_at")+` FROM session_windows w WHERE w.session_id = ?`, sessionID).Scan(&c); err == nil {
		created = ms(c)
	}
	n := 0
	err := d.Events(sessionID, func(seq int64, line []byte) error {
		line = bytes.TrimRight(line, "\r\n")
		if bytes.ContainsAny(line, "\r\n") {
			var buf bytes.Buffer
			if err := json.Compact(&buf, line); err != nil {
				return fmt.Errorf("event %d: %w", seq, err)
			}
			line = buf.Bytes()
		}
		if n == 0 && !isSessionHeader(line) {
			h, _ := json.Marshal(piHeader{Type: "session", Version: 3, ID: sessionID, Timestamp: isoMillis(created)})
			if _, err := w.Write(append(h, '\n')); err != nil {
				return err
			}
			n++
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
		n++
		return nil
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: %w", sessionID, ErrNoEvents)
	}
	return n, err
}

// piHeader is pi's version-3 session header, fields in pi's order.
type piHeader struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

func isoMillis(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func isSessionHeader(line []byte) bool {
	var h struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(line, &h) == nil && h.Type == "session"
}

// ParseDBRef splits "<agent database>#<session id>" (the path `sessctl list`
// prints for SQLite-era sessions); ok is false for anything else.
func ParseDBRef(arg string) (db, sessionID string, ok bool) {
	i := strings.LastIndexByte(arg, '#')
	if i <= 0 || i == len(arg)-1 {
		return "", "", false
	}
	db, sessionID = arg[:i], arg[i+1:]
	if !fileExists(db) || !strings.HasSuffix(db, ".sqlite") {
		return "", "", false
	}
	return db, sessionID, true
}

// ExportTemp writes a SQLite-era session to a temporary pi JSONL file (for
// reading it with the pi reader) and returns its path; the caller removes it.
func ExportTemp(dbPath, sessionID string) (string, error) {
	d, err := OpenAgentDB(dbPath)
	if err != nil {
		return "", err
	}
	defer d.Close()
	f, err := os.CreateTemp("", "sessctl-openclaw-*.jsonl")
	if err != nil {
		return "", err
	}
	if _, err := d.Export(sessionID, f); err != nil {
		// A deleted or reset generation lives on in its archive row
		// (OpenClaw 2026.9): read the newest one.
		a, ok := d.latestArchive(sessionID)
		if !errors.Is(err, ErrNoEvents) || !ok {
			f.Close()
			os.Remove(f.Name())
			return "", err
		}
		if _, err := d.ArchiveContent(a.SessionID, a.Generation, f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return "", err
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// latestArchive is the newest archive row of a session id.
func (d *AgentDB) latestArchive(sessionID string) (DBArchive, bool) {
	as, err := d.Archives()
	if err != nil {
		return DBArchive{}, false
	}
	var best DBArchive
	found := false
	for _, a := range as {
		if a.SessionID == sessionID && (!found || !a.Created.Before(best.Created)) {
			best, found = a, true
		}
	}
	return best, found
}
