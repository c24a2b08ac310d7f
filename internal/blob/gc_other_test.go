//go:build !unix

package blob

func platformUnreadableKinds() []unreadableKind { return nil }
