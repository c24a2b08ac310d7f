package relocate

import "github.com/sessctl/sessctl/internal/format/pi"

// The pi family's folder encodings moved to the pi format
// (sessfmt.ProjectFolderer); TestFolders checks them under their old names.
var (
	piFolder  = pi.PiFolder
	ompFolder = pi.OmpFolder
)
