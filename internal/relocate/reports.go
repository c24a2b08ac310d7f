package relocate

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sort"
)

// claudeProjectKeys lists the keys of "projects" in ~/.claude.json that
// are OLD or below it. The file is only read.
func claudeProjectKeys(path, old string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var doc struct {
		Projects map[string]json.RawMessage `json:"projects"`
	}
	if err := json.NewDecoder(f).Decode(&doc); err != nil {
		return nil
	}
	var out []string
	for k := range doc.Projects {
		if Under(k, old) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// historyLines counts the lines of Claude Code's history.jsonl whose
// "project" is OLD or below it. The file is only read, line by line.
func historyLines(path, old string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	n := 0
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var rec struct {
				Project string `json:"project"`
			}
			if json.Unmarshal(line, &rec) == nil && rec.Project != "" && Under(rec.Project, old) {
				n++
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return n
			}
			return n
		}
	}
}
