package repair

import (
	"os"
	"testing"
)

// inRoundDir runs one round of a test loop in a fresh directory and removes
// it when the round ends, so a test that writes files of tens of MiB round
// after round holds one round's files on disk, not every round's until the
// test ends (CI machines can have little free disk; a kill test once ran
// out of it holding 25 rounds of a 10 MB session, its backup and temp).
func inRoundDir(t *testing.T, round func(dir string)) {
	t.Helper()
	dir := t.TempDir()
	defer func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("removing the round's directory: %v", err)
		}
	}()
	round(dir)
}
