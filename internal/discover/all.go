package discover

import "path/filepath"

// ScanAll is Scan plus the sessions kept in stores (ListStores: OpenCode
// and OpenClaw databases and folders): every session list shows, with the
// warnings of both.
func ScanAll(opts Options) *Result {
	res := Scan(opts)
	stored, warns := ListStores(opts)
	res.Sessions, res.Warnings = append(res.Sessions, stored...), append(res.Warnings, warns...)
	return res
}

// ClaudeConfigDirs are the Claude Code config folders of the claude roots
// among roots (the folder holding each projects folder), where
// sessions/<pid>.json names the sessions running now.
func ClaudeConfigDirs(roots []Root) []string {
	var out []string
	for _, r := range roots {
		if r.Agent == "claude" {
			out = append(out, filepath.Dir(filepath.Clean(r.Path)))
		}
	}
	return out
}
