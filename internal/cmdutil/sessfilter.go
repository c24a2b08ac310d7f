package cmdutil

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
)

// SessionFilter selects discovered sessions by project, activity and kind:
// list's --project, --all-projects, --since and --all, for every command
// that takes them.
type SessionFilter struct {
	// Project keeps sessions whose cwd is this folder or below ("." is the
	// current directory; relative paths are from it).
	Project string
	// AllProjects false means Project "." when Project is empty.
	AllProjects bool
	// Since keeps sessions active since a duration ago or a date
	// (ParseSince).
	Since string
	// All keeps sidechain-only Claude Code transcripts and forks of
	// archived OpenClaw transcripts too.
	All bool
	// Now and Getwd are the clock and the current directory (time.Now and
	// os.Getwd outside tests).
	Now   func() time.Time
	Getwd func() (string, error)
}

// Apply returns the sessions of in that the filter keeps, in order. A bad
// --since is a usage error.
func (sf SessionFilter) Apply(in []*discover.Session) ([]*discover.Session, error) {
	project := sf.Project
	if project == "" && !sf.AllProjects {
		project = "."
	}
	var prefixes []string
	if project != "" {
		p := project
		if p == "." || !filepath.IsAbs(p) {
			wd, err := sf.Getwd()
			if err != nil {
				return nil, err
			}
			p = filepath.Join(wd, p)
		}
		p = filepath.Clean(p)
		prefixes = append(prefixes, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			prefixes = append(prefixes, real)
		}
	}
	var since time.Time
	if sf.Since != "" {
		t, err := ParseSince(sf.Since, sf.Now())
		if err != nil {
			return nil, FlagErrorf("%v", err)
		}
		since = t
	}
	var out []*discover.Session
	for _, s := range in {
		if s.Sidechain && !sf.All && !s.Orphaned {
			continue
		}
		if s.OpenClaw != nil && s.OpenClaw.Status == "archived" && !sf.All {
			continue // a fork of an archived OpenClaw transcript
		}
		if len(prefixes) > 0 && !underAny(s.Cwd, prefixes) {
			continue
		}
		if !since.IsZero() && s.Modified.Before(since) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

func underAny(cwd string, prefixes []string) bool {
	if cwd == "" {
		return false
	}
	c := filepath.Clean(cwd)
	for _, p := range prefixes {
		if c == p || strings.HasPrefix(c, strings.TrimSuffix(p, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// ParseSince parses --since: a duration back from now (Go durations plus
// d and w units: 90m, 12h, 7d, 2w) or a date/time (2006-01-02, RFC 3339).
func ParseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if n := len(s); n > 1 && (s[n-1] == 'd' || s[n-1] == 'w') {
		if v, err := strconv.ParseFloat(s[:n-1], 64); err == nil && v >= 0 {
			unit := 24 * time.Hour
			if s[n-1] == 'w' {
				unit *= 7
			}
			return now.Add(-time.Duration(v * float64(unit))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("invalid --since %q: use a duration (30m, 12h, 7d, 2w) or a date (2026-01-31 or RFC 3339)", s)
}
