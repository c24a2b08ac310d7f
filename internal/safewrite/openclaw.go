package safewrite

import (
	"os"
	"path/filepath"
)

// IsOpenClawTranscript says whether path lies in an OpenClaw (or Clawdbot)
// sessions folder, recognised by the sessions.json index beside it. Writers
// of such files must also take OpenClaw's lock (Options.OpenClawLock).
func IsOpenClawTranscript(path string) bool {
	_, err := os.Stat(filepath.Join(filepath.Dir(path), "sessions.json"))
	return err == nil
}
