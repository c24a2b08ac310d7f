package discover

import "github.com/sessctl/sessctl/internal/format/pi"

// providerList is the one list of the agents discovery knows, in order:
// where each keeps its sessions and how a file is summarised. Format is
// the registry name of the format that reads the agent's files (see
// internal/sessfmt/formats); adding an agent is its provider functions and
// one entry here.
func providerList() []Provider {
	return []Provider{
		{Agent: "pi", Format: "pi", Order: 10, Version: pi.ListInfoVersion,
			Roots: piRoots, Files: piFiles, Info: piInfo("pi"), InfoVerdict: piInfoVerdict("pi")},
		{Agent: "omp", Format: "pi", Order: 20, Version: pi.ListInfoVersion,
			Roots: ompRoots("omp", ".omp"), Files: piFiles, Info: piInfo("omp"), InfoVerdict: piInfoVerdict("omp")},
		{Agent: "xcsh", Format: "pi", Order: 30, Version: pi.ListInfoVersion,
			Roots: ompRoots("xcsh", ".xcsh"), Files: piFiles, Info: piInfo("xcsh"), InfoVerdict: piInfoVerdict("xcsh")},
		// Version 6: titles from claude.InfoMeta (the /resume picker's)
		{Agent: "claude", Format: "claude", Order: 40, Version: 6,
			Roots: claudeRoots, Files: claudeFiles, Info: claudeInfo},
		// OpenClaw transcripts are pi files, read by the pi format.
		{Agent: "openclaw", Format: "pi", Order: 50, Version: 2,
			Roots: openClawRoots, Files: openClawFiles, Info: openClawInfo},
		{Agent: "agentcore", Format: "agentcore", Order: 60, Version: 1,
			Roots: agentCoreRoots, Files: agentCoreFiles, Info: agentCoreInfo},
		// OpenCode keeps sessions in stores (ListStores); no files.
		{Agent: "opencode", Format: "opencode", Order: 70, Version: 1,
			Roots: func(Env) []Root { return nil }, Files: func(string, func(string, error)) []string { return nil }},
	}
}
