package discover

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sessctl/sessctl/internal/format/agentcore"
)

// Agent Core: ~/.pi/sessions/<sessionId>.jsonl, headerless entries with
// epoch-ms timestamps (internal/format/agentcore).

func agentCoreRoots(env Env) []Root {
	if h := env.Home(); h != "" {
		return []Root{{Agent: "agentcore", Path: filepath.Join(h, ".pi", "sessions"), Source: "default"}}
	}
	return nil
}

func agentCoreFiles(root string, warn func(string, error)) []string {
	return walkJSONL(root, 0, warn)
}

func agentCoreInfo(path string, st os.FileInfo) (*Session, error) {
	li, err := agentcore.ReadListInfo(path)
	if err != nil {
		return nil, err
	}
	s := &Session{
		Agent: "agentcore", Format: "agentcore", ID: li.ID, Path: path,
		FirstMessage: li.FirstMessage, Messages: li.Messages, Entries: li.Entries,
		Bytes: st.Size(), Modified: li.Modified, MTime: st.ModTime(),
		Problems: li.ProblemCount(), ProblemCodes: li.Problems,
	}
	if len(s.ProblemCodes) == 0 {
		s.ProblemCodes = nil
	}
	if !li.Created.IsZero() {
		c := li.Created
		s.Created = &c
	}
	s.Title, s.TitleSource = sessfmt.Title("", "", li.FirstMessage)
	if s.Modified.IsZero() {
		s.Modified = st.ModTime()
	}
	s.Modified = s.Modified.UTC().Truncate(time.Millisecond)
	return s, nil
}
