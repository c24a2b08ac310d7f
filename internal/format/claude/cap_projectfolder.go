package claude

// ProjectFolders is Claude Code's project folder name for cwd
// (ProjectDirName); nil for another agent.
func (Format) ProjectFolders(agent, cwd, home, tmp string) []string {
	if agent != "claude" {
		return nil
	}
	return []string{ProjectDirName(cwd)}
}
