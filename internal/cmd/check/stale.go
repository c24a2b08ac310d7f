package check

import (
	"fmt"
	"path/filepath"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/repair"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// staleTemps finds the temp files interrupted sessctl writes left beside
// session files (issue 11.3), one folder listing per folder.
type staleTemps map[string][]safewrite.StaleTemp

// of returns a stale-temp warning for every leftover temp whose write was
// for the file at path.
func (s staleTemps) of(path string) []problem.Problem {
	dir := filepath.Dir(path)
	list, ok := s[dir]
	if !ok {
		list, _ = safewrite.StaleTemps(dir) // an unreadable folder is the reader's to report
		s[dir] = list
	}
	base := filepath.Base(path)
	var out []problem.Problem
	for _, t := range list {
		if filepath.Base(t.Target) != base {
			continue
		}
		who := "an older sessctl"
		if t.PID > 0 {
			who = fmt.Sprintf("sessctl process %d, which is gone", t.PID)
		}
		out = append(out, problem.Problem{
			Code: problem.StaleTemp, Severity: problem.Warning,
			Message: fmt.Sprintf("temp file %s (%s) was left by an interrupted write of %s", filepath.Base(t.Path), render.HumanBytes(t.Size), who),
			Fix:     "it is not part of the session: delete it, or let the next sessctl write to this folder remove it",
		})
	}
	return append(out, pendingJournals(path)...)
}

// pendingJournals returns a pending-journal warning for every journal an
// interrupted repair of the file at path left (issue 11.2): rejected lines
// not yet in the sidecar, which the next repair of the file adds (or a
// journal of a repair whose session was never replaced, which it drops).
func pendingJournals(path string) []problem.Problem {
	var out []problem.Problem
	for _, j := range repair.PendingJournals(path) {
		out = append(out, problem.Problem{
			Code: problem.PendingJournal, Severity: problem.Warning,
			Message: fmt.Sprintf("journal %s was left by an interrupted repair: its rejected lines may not be in %s yet", filepath.Base(j), filepath.Base(repair.SidecarPath(path))),
			Fix:     "sessctl repair " + path + " finishes it",
		})
	}
	return out
}
