package discover

// ScanAll is Scan plus the sessions kept in stores (ListStores: OpenCode
// and OpenClaw databases and folders): every session list shows, with the
// warnings of both.
func ScanAll(opts Options) *Result {
	res := Scan(opts)
	stored, warns := ListStores(opts)
	res.Sessions, res.Warnings = append(res.Sessions, stored...), append(res.Warnings, warns...)
	return res
}
