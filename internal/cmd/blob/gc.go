package blob

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/spf13/cobra"
)

// GCOptions are the inputs of blob-gc.
type GCOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool
	Ctx     context.Context

	storeFlags
	Grace            time.Duration
	Apply            bool
	IgnoreUnreadable bool
	AllowNoSessions  bool
	All              bool // list every blob to delete, even on a terminal
	Verbose          bool // --all, plus odd names, symlinks and the roots read
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// NewGCCmd builds the blob-gc command.
func NewGCCmd(f *cmdutil.Factory, runF func(*GCOptions) error) *cobra.Command {
	opts := &GCOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "blob-gc",
		Short: "Delete blobs that no session references (dry run unless --apply)",
		Long: `Find the blobs of oh-my-pi and xcsh that no session file references any
more, and delete them with --apply.

Mark: every session file under every session root of the store's own
agent is read with a streaming byte scan (no JSON decoding) for
"blob:sha256:<64 hex>": <agent dir>/sessions, <agent dir>/archive/sessions,
the agent's roots from the config, every --sessions-dir and config
blob.sessionsDirs folder. Backups (.bak), gzipped archives (.jsonl.gz) and
sessctl's own backups are read too.

Sweep: files of the store named <64 hex> or <64 hex>.<ext> (the sidecars
newer oh-my-pi versions add) whose hash is not referenced and that are all
older than --grace (default 1h: an agent writes a blob just before the
session line that names it). Symlinks, odd names and anything that is not a
regular file are never deleted.

It fails closed: if any session file or root cannot be read, nothing is
deleted (--ignore-unreadable overrides, and says so), and a store whose
roots hold no session file at all is left alone (--allow-no-sessions
overrides). With --apply, session files that changed since the mark are
read again right before deleting, and each blob is checked to be the same
file, still old enough, still unreferenced.

Without --apply nothing is deleted: the output lists what would go and the
bytes it would free. On a terminal the list is cut to 20 lines; --all
lists everything.

Exit status: 0 dry run done or blobs deleted; 1 blocked by unreadable
session files (nothing deleted) or a store could not be read; 2 usage
error.`,
		Args: cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = f.JSON
			opts.Ctx = cmd.Context()
			if opts.Grace < 0 {
				return cmdutil.FlagErrorf("invalid --grace %s: it cannot be negative", opts.Grace)
			}
			if opts.Verbose {
				opts.All = true
			}
			if runF != nil {
				return runF(opts)
			}
			return RunGC(opts)
		},
	}
	opts.storeFlags.add(cmd)
	fl := cmd.Flags()
	fl.DurationVar(&opts.Grace, "grace", time.Hour, "Keep unreferenced blobs younger than this")
	fl.BoolVar(&opts.Apply, "apply", false, "Delete the unreferenced blobs (default is a dry run)")
	fl.BoolVar(&opts.IgnoreUnreadable, "ignore-unreadable", false, "Delete even if some session files could not be read (their blobs may go)")
	fl.BoolVar(&opts.AllowNoSessions, "allow-no-sessions", false, "Delete even if a store's session roots hold no session file")
	fl.BoolVar(&opts.All, "all", false, "List every blob to delete, also on a terminal")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "Like --all, and list the roots read, odd names and symlinks")
	return cmd
}

// GCCounts counts the store files by what gc does with them.
type GCCounts struct {
	Referenced int `json:"referenced"`
	InGrace    int `json:"inGrace"`
	Delete     int `json:"delete"`
	OddNames   int `json:"oddNames"`
	Symlinks   int `json:"symlinks"`
	NotRegular int `json:"notRegular"`
}

// GCBlob is one blob (with its sidecars) to delete or deleted.
type GCBlob struct {
	Hash       blob.Hash   `json:"hash"`
	Bytes      int64       `json:"bytes"`
	AgeSeconds int64       `json:"ageSeconds"`
	Files      []blob.File `json:"files"`
}

// GCApplied is what --apply did to one store.
type GCApplied struct {
	Deleted    []blob.Hash      `json:"deleted"`
	Files      int              `json:"deletedFiles"`
	FreedBytes int64            `json:"freedBytes"`
	Skipped    []blob.Skip      `json:"skipped"`
	Errors     []blob.FileError `json:"errors"`
	Rescanned  int              `json:"rescanned"`
}

// GCStore is the result for one store.
type GCStore struct {
	discover.BlobStore
	SessionFiles   int              `json:"sessionFiles"`
	ScannedBytes   int64            `json:"scannedBytes"`
	ReferencedRefs int              `json:"referencedHashes"`
	Counts         GCCounts         `json:"counts"`
	Delete         []GCBlob         `json:"delete"`
	WouldFree      int64            `json:"wouldFreeBytes"`
	Others         []blob.Other     `json:"others"`
	Unreadable     []blob.FileError `json:"unreadable"`
	// IgnoredUnreadable is true when --ignore-unreadable let deletion go
	// on although Unreadable is not empty.
	IgnoredUnreadable bool `json:"ignoredUnreadable"`
	// Blocked says why nothing was (or would be) deleted; "" when not.
	Blocked string     `json:"blocked"`
	Applied *GCApplied `json:"applied,omitempty"`
	Error   string     `json:"error,omitempty"`
}

// GCResult is the whole output of blob-gc --json.
type GCResult struct {
	DryRun       bool      `json:"dryRun"`
	Grace        string    `json:"grace"`
	GraceSeconds float64   `json:"graceSeconds"`
	Stores       []GCStore `json:"stores"`
	WouldFree    int64     `json:"wouldFreeBytes"`
	Freed        int64     `json:"freedBytes"`
}

// RunGC runs blob-gc.
func RunGC(opts *GCOptions) error {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	list, err := stores(opts.Factory, opts.storeFlags)
	if err != nil {
		return err
	}
	res := GCResult{DryRun: !opts.Apply, Grace: shortDuration(opts.Grace), GraceSeconds: opts.Grace.Seconds(), Stores: []GCStore{}}
	// Mark and plan every store first: if any of them is blocked or
	// failed, nothing is deleted anywhere.
	failed := false
	var plans []*blob.GCPlan
	for _, bs := range list {
		s, plan := planStore(ctx, opts, bs, now)
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.Error != "" || s.Blocked != "" {
			failed = true
		}
		res.WouldFree += s.WouldFree
		res.Stores = append(res.Stores, s)
		plans = append(plans, plan)
	}
	if opts.Apply {
		for i := range res.Stores {
			s := &res.Stores[i]
			switch {
			case plans[i] == nil || s.Blocked != "" || len(s.Delete) == 0:
			case failed:
				s.Blocked = "another store is blocked or could not be read, so nothing is deleted anywhere"
			default:
				applyStore(ctx, opts, s, plans[i], now)
				res.Freed += s.Applied.FreedBytes
				if s.Error != "" || s.Blocked != "" || len(s.Applied.Errors) > 0 {
					failed = true
				}
			}
		}
	}
	if opts.JSON {
		if err := render.JSON(opts.IO.Out, res, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		writeGC(opts, res)
	}
	if len(list) == 0 && !opts.IO.Quiet() {
		fmt.Fprintln(opts.IO.ErrOut, "sessctl: "+noStoreHint)
	}
	if failed {
		return cmdutil.SilentError
	}
	return nil
}

// planStore marks and plans one store (the dry run).
func planStore(ctx context.Context, opts *GCOptions, bs discover.BlobStore, now func() time.Time) (GCStore, *blob.GCPlan) {
	s := GCStore{BlobStore: bs, Delete: []GCBlob{}, Others: []blob.Other{}, Unreadable: []blob.FileError{}}
	if s.Roots == nil {
		s.Roots = []string{}
	}
	if s.OptionalRoots == nil {
		s.OptionalRoots = []string{}
	}
	marks, err := blob.Mark(ctx, blob.Source{Roots: bs.Roots, OptionalRoots: bs.OptionalRoots}, workers())
	if err != nil {
		s.Error = err.Error()
		return s, nil
	}
	t := now()
	plan, err := blob.Plan(blob.Store{Dir: bs.Dir}, marks, opts.Grace, t)
	if err != nil {
		s.Error = err.Error()
		return s, nil
	}
	s.SessionFiles, s.ScannedBytes, s.ReferencedRefs = plan.SessionFiles, plan.ScannedBytes, plan.Referenced
	s.Unreadable = append(s.Unreadable, plan.Unreadable...)
	for _, g := range plan.Groups {
		switch g.Reason {
		case blob.ReasonReferenced:
			s.Counts.Referenced++
		case blob.ReasonGrace:
			s.Counts.InGrace++
		case blob.ReasonDelete:
			s.Counts.Delete++
			s.Delete = append(s.Delete, GCBlob{Hash: g.Hash, Bytes: g.Bytes, AgeSeconds: int64(t.Sub(newest(g.Files)).Seconds()), Files: g.Files})
		case blob.ReasonSymlink:
			s.Counts.Symlinks++
			s.Others = append(s.Others, groupOthers(g)...)
		case blob.ReasonNotRegular:
			s.Counts.NotRegular++
			s.Others = append(s.Others, groupOthers(g)...)
		}
	}
	for _, o := range plan.Others {
		switch o.Reason {
		case blob.ReasonSymlink:
			s.Counts.Symlinks++
		case blob.ReasonNotRegular:
			s.Counts.NotRegular++
		default:
			s.Counts.OddNames++
		}
		s.Others = append(s.Others, o)
	}
	s.WouldFree = plan.DeleteBytes
	if len(s.Delete) > 0 {
		switch {
		case plan.Blocked() && !opts.IgnoreUnreadable:
			s.Blocked = fmt.Sprintf("%d session %s or %s could not be read, so the blobs they reference are unknown",
				len(s.Unreadable), plural(len(s.Unreadable), "file", "files"), plural(len(s.Unreadable), "folder", "folders"))
		case marks.NumFiles() == 0 && !opts.AllowNoSessions:
			s.Blocked = "no session file was found under the store's session roots, so every blob would look unreferenced"
		}
	}
	s.IgnoredUnreadable = plan.Blocked() && opts.IgnoreUnreadable
	return s, plan
}

// applyStore deletes what plan says (blob.Apply re-reads changed session
// files first and re-checks every blob) and records the outcome in s.
func applyStore(ctx context.Context, opts *GCOptions, s *GCStore, plan *blob.GCPlan, now func() time.Time) {
	ar, err := blob.Apply(ctx, plan, blob.ApplyOptions{IgnoreUnreadable: opts.IgnoreUnreadable, AllowNoSessions: opts.AllowNoSessions, Now: now})
	ap := &GCApplied{Deleted: []blob.Hash{}, Skipped: []blob.Skip{}, Errors: []blob.FileError{}}
	if ar != nil {
		for _, g := range ar.Deleted {
			ap.Deleted = append(ap.Deleted, g.Hash)
			ap.Files += len(g.Files)
		}
		ap.FreedBytes, ap.Rescanned = ar.Freed, ar.Rescanned
		ap.Skipped = append(ap.Skipped, ar.Skipped...)
		ap.Errors = append(ap.Errors, ar.Errors...)
	}
	s.Applied = ap
	if err != nil {
		// The refresh right before deleting found unreadable files (or
		// the context ended): fail closed with what was done so far.
		if errors.Is(err, blob.ErrUnreadable) || errors.Is(err, blob.ErrNoSessions) {
			s.Blocked = err.Error()
		} else {
			s.Error = err.Error()
		}
	}
}

func groupOthers(g blob.Group) []blob.Other {
	var out []blob.Other
	for _, f := range g.Files {
		out = append(out, blob.Other{File: f, Reason: g.Reason})
	}
	return out
}

func newest(fs []blob.File) time.Time {
	var t time.Time
	for _, f := range fs {
		if f.ModTime.After(t) {
			t = f.ModTime
		}
	}
	return t
}

// maxListed is how many blobs a terminal sees without --all.
const maxListed = 20

func writeGC(opts *GCOptions, res GCResult) {
	w := opts.IO.Out
	st := render.NewStyles(opts.IO)
	cut := opts.IO.IsStdoutTTY() && !opts.All
	for i, s := range res.Stores {
		if i > 0 {
			fmt.Fprintln(w)
		}
		agent := s.Agent
		if agent == "" {
			agent = "unknown agent"
		}
		fmt.Fprintf(w, "%s %s (%s, %s)\n", st.Bold.Sprint("blob store"), render.EscapeLine(s.Dir), agent, s.Source)
		if opts.Verbose {
			for _, r := range s.Roots {
				fmt.Fprintf(w, "  session root %s\n", render.EscapeLine(r))
			}
			for _, r := range s.OptionalRoots {
				fmt.Fprintf(w, "  session root %s (if present)\n", render.EscapeLine(r))
			}
		}
		if s.Error != "" {
			fmt.Fprintf(w, "  %s %s\n", st.Err.Sprint("error:"), render.EscapeLine(s.Error))
			if s.Applied == nil {
				continue
			}
		}
		fmt.Fprintf(w, "  read %d session %s (%s): %d blob %s referenced\n", s.SessionFiles, plural(s.SessionFiles, "file", "files"),
			render.HumanBytes(s.ScannedBytes), s.ReferencedRefs, plural(s.ReferencedRefs, "hash", "hashes"))
		c := s.Counts
		line := fmt.Sprintf("  blobs: %d referenced, %d in grace (newer than %s), %d to delete, %d odd %s, %d %s",
			c.Referenced, c.InGrace, res.Grace, c.Delete, c.OddNames, plural(c.OddNames, "name", "names"), c.Symlinks, plural(c.Symlinks, "symlink", "symlinks"))
		if c.NotRegular > 0 {
			line += fmt.Sprintf(", %d not regular", c.NotRegular)
		}
		fmt.Fprintln(w, line)
		if len(s.Unreadable) > 0 {
			fmt.Fprintf(w, "  %s\n", st.Err.Sprintf("could not read %d session %s:", len(s.Unreadable), plural(len(s.Unreadable), "path", "paths")))
			for j, u := range s.Unreadable {
				if cut && j == maxListed {
					fmt.Fprintf(w, "    … %d more (--all lists them)\n", len(s.Unreadable)-j)
					break
				}
				fmt.Fprintf(w, "    %s: %s\n", render.EscapeLine(u.Path), render.EscapeLine(u.Err))
			}
			if s.IgnoredUnreadable {
				fmt.Fprintf(w, "  %s\n", st.Warn.Sprint("--ignore-unreadable: going on anyway; blobs only those files reference are treated as unreferenced"))
			}
		}
		if opts.Verbose {
			for _, o := range s.Others {
				fmt.Fprintf(w, "  kept (%s): %s\n", o.Reason, render.EscapeLine(o.Name))
			}
		}
		if len(s.Delete) > 0 {
			head := "to delete:"
			if s.Applied != nil {
				head = "unreferenced:"
			}
			fmt.Fprintf(w, "  %s\n", head)
			for j, b := range s.Delete {
				if cut && j == maxListed {
					fmt.Fprintf(w, "    … %d more (--all lists them)\n", len(s.Delete)-j)
					break
				}
				extra := ""
				for _, f := range b.Files {
					if f.Kind == blob.KindSidecar {
						extra += " +" + render.EscapeLine(f.Name[blob.HexLen:])
					}
				}
				fmt.Fprintf(w, "    %s  %8s  %4s old%s\n", b.Hash, render.HumanBytes(b.Bytes), age(time.Duration(b.AgeSeconds)*time.Second), extra)
			}
		}
		switch {
		case s.Blocked != "":
			fmt.Fprintf(w, "  %s %s; nothing was deleted", st.Err.Sprint("blocked:"), render.EscapeLine(s.Blocked))
			if len(s.Unreadable) > 0 {
				fmt.Fprint(w, " (fix or remove them, or rerun with --ignore-unreadable)")
			} else {
				fmt.Fprint(w, " (--allow-no-sessions overrides)")
			}
			fmt.Fprintln(w)
		case s.Applied != nil:
			a := s.Applied
			fmt.Fprintf(w, "  deleted %d %s (%d %s), freed %s\n", len(a.Deleted), plural(len(a.Deleted), "blob", "blobs"), a.Files, plural(a.Files, "file", "files"), render.HumanBytes(a.FreedBytes))
			for _, k := range a.Skipped {
				fmt.Fprintf(w, "  kept %s: %s\n", k.Hash, render.EscapeLine(k.Why))
			}
			for _, e := range a.Errors {
				fmt.Fprintf(w, "  %s %s: %s\n", st.Err.Sprint("could not delete"), render.EscapeLine(e.Path), render.EscapeLine(e.Err))
			}
		case len(s.Delete) > 0:
			fmt.Fprintf(w, "  would free %s (%d %s)\n", render.HumanBytes(s.WouldFree), len(s.Delete), plural(len(s.Delete), "blob", "blobs"))
		default:
			fmt.Fprintln(w, "  nothing to delete")
		}
	}
	if len(res.Stores) == 0 {
		return
	}
	fmt.Fprintln(w)
	blocked := 0
	for _, s := range res.Stores {
		if s.Blocked != "" {
			blocked++
		}
	}
	switch {
	case res.DryRun:
		msg := "nothing was deleted (dry run)"
		if res.WouldFree > 0 {
			msg += fmt.Sprintf("; rerun with --apply to delete the blobs listed (%s)", render.HumanBytes(res.WouldFree))
		}
		if blocked > 0 {
			msg += fmt.Sprintf("; --apply would leave the %d blocked %s alone", blocked, plural(blocked, "store", "stores"))
		}
		fmt.Fprintln(w, msg)
	case blocked > 0 && res.Freed == 0:
		fmt.Fprintln(w, "nothing was deleted")
	default:
		fmt.Fprintf(w, "freed %s in total\n", render.HumanBytes(res.Freed))
	}
}

// shortDuration prints a duration without zero tails: "1h", "90m", "1h30m", "45s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
