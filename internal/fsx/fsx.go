// Package fsx holds the few file-system primitives whose system calls
// differ per operating system and that sessctl's data-safety rules depend
// on: renaming without ever replacing an existing name (RenameNoReplace),
// opening a name without following a symbolic link at it (NoFollow), and a
// file's identity (IDOf, IDOfFile: device and inode on Unix, volume serial
// number and file index on Windows).
//
// Supported: Linux, macOS, FreeBSD and the other BSDs (and any Unix Go
// targets), Windows. Where an operation cannot be done safely it fails
// (closed) instead of doing less: see each function for what it does per
// OS.
package fsx

// ID identifies a file and counts its names.
type ID struct {
	// Dev is the device (Unix) or volume serial number (Windows).
	Dev uint64
	// Ino is the inode number (Unix) or 64-bit file index (Windows).
	Ino uint64
	// Nlink is the number of hard links.
	Nlink uint64
	// UID and GID are the owner and group on Unix; 0 on Windows, where a
	// file's owner is part of its security descriptor and not kept.
	UID, GID int
}
