package sessfmt

// Rawer is a session whose path to the leaf can be printed as stored:
// `show --raw`.
type Rawer interface {
	// RawLines calls emit with each stored line (or record) of the path,
	// byte for byte, without its line ending.
	RawLines(opts ContextOptions, emit func(line []byte) error) error
}
