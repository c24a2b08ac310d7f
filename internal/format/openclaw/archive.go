package openclaw

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// ArchiveZstdSuffix ends the name of an archive OpenClaw 2026.9.x wrote
// zstd-compressed (<file>.jsonl.deleted.<time>[.<32 hex>].zst): it
// compresses a non-empty archive whenever its runtime has zstd.
const ArchiveZstdSuffix = ".zst"

// zstdMagic starts every zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// maxArchiveWindow bounds the decoder's window (zstd's default maximum is
// 8 MiB for the level OpenClaw uses; 128 MiB leaves room and refuses
// hostile frames asking for more).
const maxArchiveWindow = 128 << 20

// IsCompressedArchive reports whether path names a zstd archive and head
// (its first bytes) starts with a zstd frame.
func IsCompressedArchive(path string, head []byte) bool {
	fi := Classify(filepath.Base(path))
	return fi.Kind == KindArchive && fi.Compressed && bytes.HasPrefix(head, zstdMagic)
}

// OpenArchive opens a transcript archive for reading: a plain one as it
// is, a ".zst" one decompressed as it is read (streamed, never whole in
// memory).
func OpenArchive(path string) (io.ReadCloser, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !Classify(filepath.Base(path)).Compressed {
		return fh, nil
	}
	dec, err := zstd.NewReader(bufio.NewReaderSize(fh, 1<<20), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxArchiveWindow))
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &zstdFile{dec: dec, fh: fh, path: path}, nil
}

type zstdFile struct {
	dec  *zstd.Decoder
	fh   *os.File
	path string
}

func (z *zstdFile) Read(p []byte) (int, error) {
	n, err := z.dec.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: zstd: %w", z.path, err)
	}
	return n, err
}

func (z *zstdFile) Close() error {
	z.dec.Close()
	return z.fh.Close()
}

// ArchiveListInfo is list's summary of an archive (compressed or not),
// read in one streaming pass.
func ArchiveListInfo(path string) (*pi.ListInfo, error) {
	r, err := OpenArchive(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	li, err := pi.ScanListInfo(r, path)
	if err != nil {
		return nil, err
	}
	if li.Modified.IsZero() {
		if st, err := os.Stat(path); err == nil {
			li.Modified = st.ModTime()
		}
	}
	return li, nil
}

// ArchiveTemp decompresses a ".zst" archive into a private temporary file
// (mode 0600, removed by the caller) that the pi reader can index and read
// back by offset. The archive itself is only read.
func ArchiveTemp(path string) (string, error) {
	r, err := OpenArchive(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	tmp, err := os.CreateTemp("", "sessctl-openclaw-archive-*.jsonl")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// DBArchive is a row of session_transcript_archives (agent database schema
// 23, OpenClaw 2026.9.x): the transcript of a deleted or reset session
// generation, the source the sessions/ archive files are published from.
type DBArchive struct {
	SessionID  string    `json:"sessionId"`
	Generation string    `json:"generation"`
	Key        string    `json:"key"`
	Reason     string    `json:"reason"`   // deleted, reset
	Encoding   string    `json:"encoding"` // identity, zstd
	Name       string    `json:"name"`     // the archive file's name in sessions/
	SHA256     string    `json:"sha256"`   // of the stored blob
	Bytes      int64     `json:"bytes"`    // stored (compressed) size
	Created    time.Time `json:"created,omitzero"`
	Published  time.Time `json:"published,omitzero"`
	// PublishError is the last error writing the archive file, if any.
	PublishError string `json:"publishError,omitempty"`
}

// Archives lists session_transcript_archives (nil when the database has
// no such table: before OpenClaw 2026.9).
func (d *AgentDB) Archives() ([]DBArchive, error) {
	if !d.hasTable("session_transcript_archives") {
		return nil, nil
	}
	rows, err := d.db.Query(`SELECT session_id, generation, session_key, reason, encoding, archive_name, archive_sha256,
		length(archive_blob), created_at, published_at, last_publish_error FROM session_transcript_archives ORDER BY created_at, archive_name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DBArchive
	for rows.Next() {
		var a DBArchive
		var created, published sql.NullInt64
		var perr sql.NullString
		if err := rows.Scan(&a.SessionID, &a.Generation, &a.Key, &a.Reason, &a.Encoding, &a.Name, &a.SHA256, &a.Bytes, &created, &published, &perr); err != nil {
			return nil, err
		}
		a.Created, a.Published, a.PublishError = ms(created), ms(published), perr.String
		out = append(out, a)
	}
	return out, rows.Err()
}

// ArchiveContent writes the transcript (pi lines) of an archived session
// generation to w, decompressed, after checking the stored blob against its
// sha256; it returns the bytes written.
func (d *AgentDB) ArchiveContent(sessionID, generation string, w io.Writer) (int64, error) {
	var blob []byte
	var enc, sum string
	err := d.db.QueryRow(`SELECT archive_blob, encoding, archive_sha256 FROM session_transcript_archives WHERE session_id = ? AND generation = ?`,
		sessionID, generation).Scan(&blob, &enc, &sum)
	if err != nil {
		return 0, err
	}
	if h := sha256.Sum256(blob); hex.EncodeToString(h[:]) != sum {
		return 0, fmt.Errorf("archive %s/%s: the stored blob does not match its sha256", sessionID, generation)
	}
	switch enc {
	case "identity":
		n, err := w.Write(blob)
		return int64(n), err
	case "zstd":
		dec, err := zstd.NewReader(bytes.NewReader(blob), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxArchiveWindow))
		if err != nil {
			return 0, err
		}
		defer dec.Close()
		return io.Copy(w, dec)
	}
	return 0, fmt.Errorf("archive %s/%s: unknown encoding %q", sessionID, generation, enc)
}

// openArchiveSession opens a ".zst" archive file through a private
// temporary decompressed copy (removed by Close); everything the session
// says names the archive, never the copy.
func openArchiveSession(ref sessfmt.Ref, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	tmp, err := ArchiveTemp(ref.Path)
	if err != nil {
		return nil, err
	}
	ref.Format, ref.Agent = "openclaw", "openclaw"
	ps, err := pi.OpenSession(ref, tmp, opts)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	ps.MetaFunc = func() sessfmt.Meta {
		m := pi.MetaOf(tmp, "openclaw")
		m.Agent, m.Format = "openclaw", "openclaw"
		if st, err := os.Stat(ref.Path); err == nil {
			m.Bytes = st.Size()
		}
		return m
	}
	return &Opened{Session: ps, tmp: tmp}, nil
}

// ArchivedSession is an archive row with list's summary of its transcript.
type ArchivedSession struct {
	DBArchive
	Info *pi.ListInfo
}

// ArchivedSessions lists the archive rows whose session has no live
// generation left in the database (deleted, or reset and gone), newest
// first, each summarised as list summarises a transcript (the blob is
// decompressed as it is scanned, never whole in memory).
func (d *AgentDB) ArchivedSessions() ([]ArchivedSession, error) {
	as, err := d.Archives()
	if err != nil || len(as) == 0 {
		return nil, err
	}
	live := map[string]bool{}
	rows, err := d.db.Query(`SELECT DISTINCT session_id FROM transcript_events`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			live[id] = true
		}
	}
	rows.Close()
	newest := map[string]DBArchive{}
	for _, a := range as {
		if live[a.SessionID] {
			continue
		}
		if b, ok := newest[a.SessionID]; !ok || !a.Created.Before(b.Created) {
			newest[a.SessionID] = a
		}
	}
	var out []ArchivedSession
	for _, a := range as {
		if b, ok := newest[a.SessionID]; !ok || b.Generation != a.Generation {
			continue
		}
		pr, pw := io.Pipe()
		go func() {
			_, err := d.ArchiveContent(a.SessionID, a.Generation, pw)
			pw.CloseWithError(err)
		}()
		li, err := pi.ScanListInfo(pr, a.Name)
		pr.Close()
		if err != nil {
			return nil, fmt.Errorf("archive %s: %w", a.Name, err)
		}
		out = append(out, ArchivedSession{DBArchive: a, Info: li})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}
