// Package blob reads, verifies and garbage-collects the content-addressed blob
// store that oh-my-pi and xcsh use for large images: files named
// <agent dir>/blobs/<sha256 hex>, referenced from session lines as
// "blob:sha256:<64 lowercase hex>". Newer oh-my-pi versions also keep a
// sidecar <hex>.<ext> next to each blob (a hard link, or a copy when linking
// fails) so that OS image viewers can open it; references always name the
// bare hash.
//
// # Refs and paths
//
// A ref is accepted only if it is exactly "blob:sha256:" followed by 64
// lowercase hex digits (ParseRef). Anything else is rejected before it can
// reach the filesystem. The only way to turn a Hash into a path is
// Store.Path, which joins the store directory with the 64-digit hex name.
//
// # Symlinks
//
// The store directory itself may be a symlink. Entries inside it that are
// symlinks are never followed and never deleted: Verify reports them with
// StatusSymlink, the garbage collector keeps them (and every other file of
// the same hash) with ReasonSymlink, and Open refuses them. All reads and
// deletions go through an os.Root for the store directory, so no operation
// of this package can leave the store even if an entry is swapped for a
// symlink between checks.
//
// # Mark
//
// The mark phase (Mark, Scan, ScanFile) finds every "blob:sha256:" followed
// by exactly 64 lowercase hex digits and a byte that is not a lowercase hex
// digit (or the end of input), with a streaming byte scan: no JSON decoding,
// no line length limit, gzip files (detected by their magic bytes, not by
// name) are decompressed on the fly. This marks a superset of what oh-my-pi's
// own gc marks (its regexp requires word boundaries on both sides), so a
// blob kept by oh-my-pi is kept by sessctl too. Refs spelled with JSON \u
// escapes are not recognised; no agent writes them.
//
// # Sweep and races
//
// Plan classifies every file in the store; Apply deletes only groups (a
// bare blob plus its sidecars) whose hash is unreferenced and whose files
// are all older than the grace period. It fails closed: if any session file
// or directory could not be read during the mark, nothing is deleted unless
// the caller sets IgnoreUnreadable (a file listed by the walk that is gone
// when it is opened is not an error: it was renamed or deleted, and the
// re-walk below sees what replaced it). Before deleting, Apply re-walks the
// session roots and rescans every session file that is new or whose
// identity, size or mtime changed since it was scanned, and re-checks each
// blob file's identity, size and mtime. The grace period protects blobs
// written just before the session line that references them (agents write
// the blob first); the rescan protects old blobs that get referenced again
// while the collector runs. The remaining window (a line appended after its
// file was rescanned and before the unlink, referencing a blob older than
// the grace period) cannot be closed without a lock the agents do not take
// for appends; it is microseconds wide.
package blob
