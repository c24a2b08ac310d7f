package sessfmt

// ProjectFolderer is a Format whose agents keep a project's sessions in a
// folder of their root named after the project's cwd (pi, oh-my-pi, xcsh,
// Claude Code). sessctl relocate asks it for the folder names of the old
// and the new project path.
type ProjectFolderer interface {
	// ProjectFolders are the names agent may have given the project folder
	// of cwd, the one it uses now first (an older name after it); nil when
	// agent is not one of this format's or keeps no such folder. home and
	// tmp are the user's home and temporary folder, clean and with
	// symlinks resolved ("" when unknown), for the agents whose name
	// depends on them.
	ProjectFolders(agent, cwd, home, tmp string) []string
}
