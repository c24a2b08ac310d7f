package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessctl/sessctl/internal/problem"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// JSONStore is the per-file Storage tree (the "json" generation) rooted at a
// storage/ directory.
type JSONStore struct {
	Dir string
}

// fileProblem classifies a JSON file that cannot be used.
type fileProblem struct {
	path string
	code string // json-empty, json-nul, json-invalid, read-error
	err  error
}

// decodeFile decodes one JSON file into v, streaming from the file. It
// classifies zero-byte and NUL-filled files.
func decodeFile(path string, v any) *fileProblem {
	f, err := os.Open(path)
	if err != nil {
		return &fileProblem{path: path, code: "read-error", err: err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &fileProblem{path: path, code: "read-error", err: err}
	}
	if fi.Size() == 0 {
		return &fileProblem{path: path, code: CodeJSONEmpty, err: errors.New("zero-byte file")}
	}
	// Sniff the start for NUL filling without reading the whole file.
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if trimmed := bytes.TrimLeft(head, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == 0 {
		return &fileProblem{path: path, code: CodeJSONNUL, err: errors.New("file starts with NUL bytes")}
	}
	dec := json.NewDecoder(io.MultiReader(bytes.NewReader(head), f))
	if err := dec.Decode(v); err != nil {
		if hasNUL(path) {
			return &fileProblem{path: path, code: CodeJSONNUL, err: fmt.Errorf("NUL bytes in file: %v", err)}
		}
		return &fileProblem{path: path, code: CodeJSONInvalid, err: err}
	}
	// Anything but whitespace after the value is a torn or doubled write.
	if _, err := dec.Token(); err != io.EOF {
		if hasNUL(path) {
			return &fileProblem{path: path, code: CodeJSONNUL, err: errors.New("NUL bytes after the JSON value")}
		}
		return &fileProblem{path: path, code: CodeJSONInvalid, err: errors.New("data after the JSON value")}
	}
	return nil
}

// hasNUL reports whether the file contains a NUL byte (streamed).
func hasNUL(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if bytes.IndexByte(buf[:n], 0) >= 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// jsonNames lists the *.json files of a directory, sorted by name (the order
// OpenCode's Storage.list returns). A missing directory is empty.
func jsonNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

func subdirs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// Sessions reads storage/session/<projectID>/<ses>.json. Ids are taken from
// the paths, as OpenCode's importer does. Message counts come from the
// number of files in storage/message/<ses>/. Unreadable files are returned as
// problems and skipped.
func (j *JSONStore) Sessions() ([]Session, []problem.Problem) {
	var out []Session
	var probs []problem.Problem
	root := filepath.Join(j.Dir, "session")
	projects, err := subdirs(root)
	if err != nil {
		return nil, []problem.Problem{{Code: CodeReadError, Severity: SevError, Location: root, Message: err.Error()}}
	}
	for _, pid := range projects {
		names, err := jsonNames(filepath.Join(root, pid))
		if err != nil {
			probs = append(probs, problem.Problem{Code: CodeReadError, Severity: SevError, Location: filepath.Join(root, pid), Message: err.Error()})
			continue
		}
		for _, name := range names {
			path := filepath.Join(root, pid, name)
			var r rawSession
			if fp := decodeFile(path, &r); fp != nil {
				probs = append(probs, fp.problem("session"))
				continue
			}
			s := r.session()
			s.ID = strings.TrimSuffix(name, ".json")
			s.ProjectID = pid
			j.messageFolder(&s, r.ID)
			msgs, _ := jsonNames(filepath.Join(j.Dir, "message", s.MessageKey()))
			s.Messages = len(msgs)
			s.Sources = []string{string(GenJSON)}
			s.Location = path
			out = append(out, s)
		}
	}
	return out, probs
}

// messageFolder records the id written inside a session file when it is
// not the file's name (hand-made and moved stores), and reads the
// messages from storage/message/<that id>/ when only that folder exists,
// so that no stored message is hidden.
func (j *JSONStore) messageFolder(s *Session, fileID string) {
	if fileID == "" || fileID == s.ID || strings.ContainsAny(fileID, `/\`) || fileID == "." || fileID == ".." {
		return
	}
	s.FileID = fileID
	if !isDir(filepath.Join(j.Dir, "message", s.ID)) && isDir(filepath.Join(j.Dir, "message", fileID)) {
		s.messageKey = fileID
	}
}

// innerID is the "id" written inside a record ("" if none or not a plain
// folder name).
func innerID(raw []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &v) != nil || strings.ContainsAny(v.ID, `/\`) || v.ID == "." || v.ID == ".." {
		return ""
	}
	return v.ID
}

// session reads the one session file named id, wherever its project is.
func (j *JSONStore) session(id string) ([]Session, []problem.Problem) {
	if strings.ContainsAny(id, `/\*?[`) || id == "" || id == "." || id == ".." {
		return nil, nil
	}
	matches, _ := filepath.Glob(filepath.Join(j.Dir, "session", "*", id+".json"))
	var out []Session
	var probs []problem.Problem
	for _, path := range matches {
		var r rawSession
		if fp := decodeFile(path, &r); fp != nil {
			probs = append(probs, fp.problem("session"))
			continue
		}
		s := r.session()
		s.ID = id
		s.ProjectID = filepath.Base(filepath.Dir(path))
		j.messageFolder(&s, r.ID)
		msgs, _ := jsonNames(filepath.Join(j.Dir, "message", s.MessageKey()))
		s.Messages = len(msgs)
		s.Sources = []string{string(GenJSON)}
		s.Location = path
		out = append(out, s)
		break
	}
	return out, probs
}

// Projects reads storage/project/<id>.json.
func (j *JSONStore) Projects() ([]Project, []problem.Problem) {
	dir := filepath.Join(j.Dir, "project")
	names, err := jsonNames(dir)
	if err != nil {
		return nil, []problem.Problem{{Code: CodeReadError, Severity: SevError, Location: dir, Message: err.Error()}}
	}
	var out []Project
	var probs []problem.Problem
	for _, name := range names {
		path := filepath.Join(dir, name)
		var p Project
		if fp := decodeFile(path, &p); fp != nil {
			probs = append(probs, fp.problem("project"))
			continue
		}
		p.ID = strings.TrimSuffix(name, ".json")
		out = append(out, p)
	}
	return out, probs
}

// Messages reads one session's message files and their part files, sorted by
// file name (ids ascend in time). Undecodable files are counted in skipped.
func (j *JSONStore) Messages(sessionID string) (msgs []Message, skipped int, err error) {
	mdir := filepath.Join(j.Dir, "message", sessionID)
	names, err := jsonNames(mdir)
	if err != nil {
		return nil, 0, err
	}
	for _, name := range names {
		id := strings.TrimSuffix(name, ".json")
		var raw json.RawMessage
		if fp := decodeFile(filepath.Join(mdir, name), &raw); fp != nil {
			skipped++
			continue
		}
		m, err := decodeMessage(raw, id, sessionID)
		if err != nil {
			skipped++
			continue
		}
		pdir := filepath.Join(j.Dir, "part", id)
		if inner := innerID(raw); inner != "" && inner != id && !isDir(pdir) && isDir(filepath.Join(j.Dir, "part", inner)) {
			// Parts filed under the id inside the message file (as
			// OpenCode's JSON storage looked them up), not its name.
			pdir = filepath.Join(j.Dir, "part", inner)
		}
		pnames, err := jsonNames(pdir)
		if err != nil {
			return nil, skipped, err
		}
		for _, pn := range pnames {
			var praw json.RawMessage
			if fp := decodeFile(filepath.Join(pdir, pn), &praw); fp != nil {
				skipped++
				continue
			}
			p, err := decodePart(praw, strings.TrimSuffix(pn, ".json"), id, sessionID)
			if err != nil {
				skipped++
				continue
			}
			m.Parts = append(m.Parts, p)
		}
		msgs = append(msgs, m)
	}
	return msgs, skipped, nil
}
