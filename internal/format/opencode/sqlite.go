package opencode

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // pure-Go SQLite driver
)

// DB is one opencode*.db file opened read-only.
type DB struct {
	Path string
	Name string // base name, used in source labels
	// Immutable is true when the file was opened with immutable=1 (no -wal or
	// -journal file next to it, so no writer has it open in WAL mode).
	Immutable bool
	db        *sql.DB
	cols      map[string]map[string]bool // table → columns
}

// dsn builds a read-only SQLite URI. With a -wal (or -journal) file present
// the connection goes through normal locking so WAL content is read; without
// one immutable=1 avoids creating -wal/-shm files next to a database nobody
// has open.
func dsn(path string, immutable bool) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	q := "mode=ro"
	if immutable {
		q += "&immutable=1"
	}
	return "file:" + esc + "?" + q + "&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// OpenDB opens an OpenCode database read-only and reads its table layout.
func OpenDB(path string) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	immutable := !exists(abs+"-wal") && !exists(abs+"-journal")
	sdb, err := sql.Open("sqlite", dsn(abs, immutable))
	if err != nil {
		return nil, err
	}
	sdb.SetMaxOpenConns(1)
	d := &DB{Path: abs, Name: filepath.Base(abs), Immutable: immutable, db: sdb, cols: map[string]map[string]bool{}}
	if err := d.loadSchema(); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// SQL exposes the read-only connection (for benchmarks and ad-hoc queries).
func (d *DB) SQL() *sql.DB { return d.db }

func (d *DB) loadSchema() error {
	rows, err := d.db.Query(`SELECT name FROM sqlite_master WHERE type='table'`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		switch t {
		case "project", "session", "message", "part", "session_v2", "session_message":
		default:
			continue
		}
		cr, err := d.db.Query(`SELECT name FROM pragma_table_info(?)`, t)
		if err != nil {
			return err
		}
		m := map[string]bool{}
		for cr.Next() {
			var c string
			if err := cr.Scan(&c); err != nil {
				cr.Close()
				return err
			}
			m[c] = true
		}
		cr.Close()
		d.cols[t] = m
	}
	return nil
}

// HasTable reports whether the database has table t.
func (d *DB) HasTable(t string) bool { return d.cols[t] != nil }

// IsOpenCode reports whether the database looks like an OpenCode database.
func (d *DB) IsOpenCode() bool {
	return (d.HasTable("session") && d.HasTable("message")) || d.HasTable("session_v2")
}

// col returns the column name, or NULL when the table lacks it (older schemas).
func (d *DB) col(table, c string) string {
	if d.cols[table][c] {
		return "`" + c + "`"
	}
	return "NULL"
}

func (d *DB) label(g Generation) string { return string(g) + ":" + d.Name }

// counts returns id → row count of table grouped by column (only for the
// value only, when it is not empty).
func (d *DB) counts(table, column, only string) (map[string]int, error) {
	out := map[string]int{}
	if !d.HasTable(table) {
		return out, nil
	}
	q := "SELECT `" + column + "`, COUNT(*) FROM `" + table + "`"
	var args []any
	if only != "" {
		q += " WHERE `" + column + "` = ?"
		args = append(args, only)
	}
	rows, err := d.db.Query(q+" GROUP BY `"+column+"`", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id sql.NullString
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id.String] = n
	}
	return out, rows.Err()
}

// Sessions reads the session table (g = GenSQLite) or session_v2 (GenSQLiteV2)
// with message counts, and part counts when countParts is set (that scan
// costs more than the rest of the listing on large databases).
func (d *DB) Sessions(g Generation, countParts bool) ([]Session, error) {
	return d.sessions(g, countParts, "")
}

// sessions is Sessions restricted to one id when id is not empty.
func (d *DB) sessions(g Generation, countParts bool, id string) ([]Session, error) {
	table, msgTable := "session", "message"
	if g == GenSQLiteV2 {
		table, msgTable = "session_v2", "session_message"
	}
	if !d.HasTable(table) {
		return nil, nil
	}
	c := func(n string) string { return d.col(table, n) }
	q := "SELECT id, " + strings.Join([]string{
		c("project_id"), c("workspace_id"), c("parent_id"), c("slug"), c("directory"), c("title"), c("version"),
		c("cost"), c("tokens_input"), c("tokens_output"), c("tokens_reasoning"), c("tokens_cache_read"), c("tokens_cache_write"),
		c("revert"), c("time_created"), c("time_updated"), c("time_archived"),
	}, ", ") + " FROM `" + table + "`"
	var args []any
	if id != "" {
		q += " WHERE id = ?"
		args = append(args, id)
	}
	// Counts first: the pool has a single connection.
	msgs, err := d.counts(msgTable, "session_id", id)
	if err != nil {
		return nil, err
	}
	var parts map[string]int
	if g == GenSQLite && (countParts || id != "") {
		if parts, err = d.counts("part", "session_id", id); err != nil {
			return nil, err
		}
	}
	rows, err := d.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		var (
			id                                                  string
			project, workspace, parent, slug, dir, title, ver   sql.NullString
			revert                                              sql.NullString
			cost                                                sql.NullFloat64
			tin, tout, treason, tcr, tcw, created, updated, arc sql.NullInt64
		)
		if err := rows.Scan(&id, &project, &workspace, &parent, &slug, &dir, &title, &ver,
			&cost, &tin, &tout, &treason, &tcr, &tcw, &revert, &created, &updated, &arc); err != nil {
			return nil, err
		}
		s := Session{
			ID: id, ProjectID: project.String, WorkspaceID: workspace.String, ParentID: parent.String,
			Slug: slug.String, Directory: dir.String, Title: title.String, Version: ver.String,
			Cost:    cost.Float64,
			Tokens:  Tokens{Input: tin.Int64, Output: tout.Int64, Reasoning: treason.Int64, CacheRead: tcr.Int64, CacheWrite: tcw.Int64},
			Created: msTime(created.Int64), Updated: msTime(updated.Int64), Archived: msTime(arc.Int64),
			Messages: msgs[id], Parts: -1,
			Sources: []string{d.label(g)}, Location: d.Path,
		}
		if parts != nil {
			s.Parts = parts[id]
		}
		if revert.Valid && revert.String != "" && revert.String != "null" {
			var r Revert
			if json.Unmarshal([]byte(revert.String), &r) == nil && r.MessageID != "" {
				s.Revert = &r
			}
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Projects reads the project table.
func (d *DB) Projects() ([]Project, error) {
	if !d.HasTable("project") {
		return nil, nil
	}
	rows, err := d.db.Query("SELECT id, " + d.col("project", "worktree") + ", " + d.col("project", "name") + ", " + d.col("project", "vcs") + " FROM project")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Project
	for rows.Next() {
		var id string
		var wt, name, vcs sql.NullString
		if err := rows.Scan(&id, &wt, &name, &vcs); err != nil {
			return nil, err
		}
		out = append(out, Project{ID: id, Worktree: wt.String, Name: name.String, VCS: vcs.String})
	}
	return out, rows.Err()
}

// Messages reads one session's messages and parts from the message/part
// tables, ordered as OpenCode orders them (time_created, id; parts by id).
// Rows whose JSON does not decode are counted in skipped.
func (d *DB) Messages(sessionID string) (msgs []Message, skipped int, err error) {
	if !d.HasTable("message") {
		return nil, 0, nil
	}
	rows, err := d.db.Query("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", sessionID)
	if err != nil {
		return nil, 0, err
	}
	index := map[string]int{}
	for rows.Next() {
		var id string
		var data sql.NullString
		if err := rows.Scan(&id, &data); err != nil {
			rows.Close()
			return nil, 0, err
		}
		m, err := decodeMessage([]byte(data.String), id, sessionID)
		if err != nil {
			skipped++
			m = Message{ID: id, SessionID: sessionID, Role: "?", Raw: json.RawMessage(data.String)}
		}
		index[id] = len(msgs)
		msgs = append(msgs, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if !d.HasTable("part") {
		return msgs, skipped, nil
	}
	prows, err := d.db.Query("SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.message_id, p.id", sessionID)
	if err != nil {
		return nil, 0, err
	}
	defer prows.Close()
	for prows.Next() {
		var id, mid string
		var data sql.NullString
		if err := prows.Scan(&id, &mid, &data); err != nil {
			return nil, 0, err
		}
		i, ok := index[mid]
		if !ok {
			continue
		}
		p, err := decodePart([]byte(data.String), id, mid, sessionID)
		if err != nil {
			skipped++
			p = Part{ID: id, MessageID: mid, SessionID: sessionID, Type: "?", Raw: json.RawMessage(data.String)}
		}
		msgs[i].Parts = append(msgs[i].Parts, p)
	}
	return msgs, skipped, prows.Err()
}

// v2Content is one item of an OpenCode 2 assistant message's content.
type v2Content struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	State json.RawMessage `json:"state"`
}

// MessagesV2 reads one session's session_message rows (OpenCode 2), ordered by
// seq, mapped onto Message/Part: the row type is the role, assistant content
// items become parts, other payloads become one text part when they carry
// text and a part of the row's type otherwise.
func (d *DB) MessagesV2(sessionID string) (msgs []Message, skipped int, err error) {
	if !d.HasTable("session_message") {
		return nil, 0, nil
	}
	rows, err := d.db.Query("SELECT id, type, "+d.col("session_message", "time_created")+", data FROM session_message WHERE session_id = ? ORDER BY seq", sessionID)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, typ string
		var created sql.NullInt64
		var data sql.NullString
		if err := rows.Scan(&id, &typ, &created, &data); err != nil {
			return nil, 0, err
		}
		m, err := decodeMessage([]byte(data.String), id, sessionID)
		if err != nil {
			skipped++
			m = Message{ID: id, SessionID: sessionID, Raw: json.RawMessage(data.String)}
		}
		m.Role = typ
		if m.Created.IsZero() {
			m.Created = msTime(created.Int64)
		}
		var body struct {
			Content []v2Content `json:"content"`
			Text    string      `json:"text"`
			Model   *struct {
				ID         string `json:"id"`
				ProviderID string `json:"providerID"`
			} `json:"model"`
		}
		_ = json.Unmarshal([]byte(data.String), &body)
		if body.Model != nil && m.ModelID == "" {
			m.ModelID, m.ProviderID = body.Model.ID, body.Model.ProviderID
		}
		for i, c := range body.Content {
			p := Part{ID: c.ID, MessageID: id, SessionID: sessionID, Type: c.Type, Text: c.Text}
			if p.ID == "" {
				p.ID = fmt.Sprintf("%s#%d", id, i)
			}
			if c.Type == "tool" {
				p.Tool, p.CallID = c.Name, c.ID
				var st struct {
					Status  string          `json:"status"`
					Input   json.RawMessage `json:"input"`
					Error   json.RawMessage `json:"error"`
					Content []struct {
						Type string `json:"type"`
						Text string `json:"text"`
					} `json:"content"`
				}
				if json.Unmarshal(c.State, &st) == nil {
					p.Status, p.Input, p.ToolError = st.Status, st.Input, jsonText(st.Error)
					var sb strings.Builder
					for _, x := range st.Content {
						sb.WriteString(x.Text)
					}
					p.Output = sb.String()
				}
			}
			m.Parts = append(m.Parts, p)
		}
		if len(body.Content) == 0 {
			if body.Text != "" {
				m.Parts = append(m.Parts, Part{ID: id + "#0", MessageID: id, SessionID: sessionID, Type: "text", Text: body.Text})
			} else if typ != "user" && typ != "assistant" {
				m.Parts = append(m.Parts, Part{ID: id + "#0", MessageID: id, SessionID: sessionID, Type: typ, Raw: json.RawMessage(data.String)})
			}
		}
		msgs = append(msgs, m)
	}
	return msgs, skipped, rows.Err()
}
