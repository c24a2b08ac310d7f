package blob

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/sessctl/sessctl/internal/blob"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// VerifyOptions are the inputs of blob verify.
type VerifyOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool
	Ctx     context.Context

	storeFlags
	Sessions []string
	All      bool // list ok blobs and odd names too
}

// NewVerifyCmd builds `blob verify`.
func NewVerifyCmd(f *cmdutil.Factory, runF func(*VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "verify [<session>...]",
		Short: "Check that blobs exist and match their hash",
		Long: `Check the blobs of oh-my-pi and xcsh. Without arguments every file of every
blob store found (or of --store DIR) is read and its SHA-256 compared with
its name; sidecars (<hash>.<ext>) too. With sessions (paths, ids or id
prefixes), only the blobs those sessions reference are checked, in the
store beside each session (or --store).

Problems: missing (a session references a blob that is not there),
corrupt (the bytes do not hash to the name), unreadable, symlink (never
followed) and not-regular. Files whose name is not a blob name are listed
with --all and are not a problem.

Exit status: 0 every blob is fine; 3 problems found; 1 a store or session
file could not be read; 2 usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sessions = args
			opts.JSON = f.JSON
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return RunVerify(opts)
		},
	}
	opts.storeFlags.add(cmd)
	cmd.Flags().BoolVar(&opts.All, "all", false, "List every file checked, not only the problems")
	return cmd
}

// VerifyResult is one checked store file, with the sessions that reference
// it when sessions were named.
type VerifyResult struct {
	blob.Result
	Sessions []string `json:"sessions,omitempty"`
}

// VerifyStore is the verdict on one store.
type VerifyStore struct {
	Agent    string         `json:"agent"`
	Dir      string         `json:"dir"`
	Results  []VerifyResult `json:"results"`
	Counts   map[string]int `json:"counts"`
	Problems int            `json:"problems"`
	Error    string         `json:"error,omitempty"`
}

// VerifyReport is the output of blob verify --json.
type VerifyReport struct {
	Stores   []VerifyStore    `json:"stores"`
	Sessions []blob.FileError `json:"unreadableSessions"`
	Problems int              `json:"problems"`
}

// RunVerify runs blob verify.
func RunVerify(opts *VerifyOptions) error {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	rep := VerifyReport{Stores: []VerifyStore{}, Sessions: []blob.FileError{}}
	var err error
	if len(opts.Sessions) > 0 {
		err = verifySessions(ctx, opts, &rep)
	} else {
		err = verifyStores(ctx, opts, &rep)
	}
	if err != nil {
		return err
	}
	failed := len(rep.Sessions) > 0
	for i := range rep.Stores {
		rep.Problems += rep.Stores[i].Problems
		if rep.Stores[i].Error != "" {
			failed = true
		}
	}
	if opts.JSON {
		if err := render.JSON(opts.IO.Out, rep, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		writeVerify(opts, rep)
	}
	switch {
	case failed:
		return cmdutil.SilentError
	case rep.Problems > 0:
		return cmdutil.ErrProblems
	}
	return nil
}

func verifyStores(ctx context.Context, opts *VerifyOptions, rep *VerifyReport) error {
	list, err := stores(opts.Factory, opts.storeFlags)
	if err != nil {
		return err
	}
	if len(list) == 0 && !opts.IO.Quiet() {
		fmt.Fprintln(opts.IO.ErrOut, "sessctl: "+noStoreHint)
	}
	for _, bs := range list {
		vs := VerifyStore{Agent: bs.Agent, Dir: bs.Dir, Results: []VerifyResult{}, Counts: map[string]int{}}
		r, err := blob.Store{Dir: bs.Dir}.VerifyAll(ctx, workers())
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			vs.Error = err.Error()
		} else {
			vs.add(r, nil)
		}
		rep.Stores = append(rep.Stores, vs)
	}
	return nil
}

func (vs *VerifyStore) add(r *blob.Report, refs map[blob.Hash][]string) {
	for _, x := range r.Results {
		vr := VerifyResult{Result: x}
		if refs != nil {
			vr.Sessions = refs[x.Hash]
		}
		vs.Results = append(vs.Results, vr)
	}
	for k, n := range r.Counts {
		vs.Counts[string(k)] += n
	}
	vs.Problems += r.Problems
}

// verifySessions checks the blobs each named session references, in the
// store the session resolves them against (--store, or the store whose
// roots hold the file, or <agent dir>/blobs beside its sessions folder).
func verifySessions(ctx context.Context, opts *VerifyOptions, rep *VerifyReport) error {
	env := discover.Env{Getenv: opts.Factory.Getenv}
	var fixed, fixedAgent string
	if opts.Store != "" {
		list, err := stores(opts.Factory, opts.storeFlags)
		if err != nil {
			return err
		}
		fixed, fixedAgent = list[0].Dir, list[0].Agent
	}
	type storeRefs struct {
		agent string
		refs  map[blob.Hash][]string
		order []blob.Hash
	}
	byStore := map[string]*storeRefs{}
	var dirs []string
	for _, arg := range opts.Sessions {
		ref, err := resolveFile(opts.Factory, arg)
		if err != nil {
			var ue *cmdutil.UsageError
			if errors.As(err, &ue) {
				return err
			}
			rep.Sessions = append(rep.Sessions, blob.FileError{Path: arg, Err: err.Error()})
			continue
		}
		dir, agent := fixed, fixedAgent
		if dir == "" {
			dir, agent = discover.BlobStoreFor(env, ref.Path, nil, opts.SessionsDirs)
		}
		var hashes []blob.Hash
		if err := blob.ScanFile(ref.Path, func(h blob.Hash) { hashes = append(hashes, h) }); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("%s does not exist", ref.Path)
			}
			rep.Sessions = append(rep.Sessions, blob.FileError{Path: ref.Path, Err: err.Error()})
			continue
		}
		if len(hashes) == 0 {
			continue
		}
		if dir == "" {
			rep.Sessions = append(rep.Sessions, blob.FileError{Path: ref.Path,
				Err: fmt.Sprintf("%d blob references but no blob store beside the file; name it with --store", len(hashes))})
			continue
		}
		sr := byStore[dir]
		if sr == nil {
			if agent == "" {
				agent = ref.Agent
			}
			sr = &storeRefs{agent: agent, refs: map[blob.Hash][]string{}}
			byStore[dir] = sr
			dirs = append(dirs, dir)
		}
		for _, h := range hashes {
			ss := sr.refs[h]
			if len(ss) > 0 && ss[len(ss)-1] == ref.Path {
				continue
			}
			if len(ss) == 0 {
				sr.order = append(sr.order, h)
			}
			sr.refs[h] = append(ss, ref.Path)
		}
	}
	for _, dir := range dirs {
		sr := byStore[dir]
		vs := VerifyStore{Agent: sr.agent, Dir: dir, Results: []VerifyResult{}, Counts: map[string]int{}}
		r, err := blob.Store{Dir: dir}.VerifyHashes(ctx, sr.order, workers())
		if err != nil {
			return err
		}
		for h := range sr.refs {
			sort.Strings(sr.refs[h])
		}
		vs.add(r, sr.refs)
		rep.Stores = append(rep.Stores, vs)
	}
	return nil
}

// resolveFile resolves a session argument through the registry to a
// session file: blob references live only in session files (oh-my-pi,
// xcsh); a session kept in a store has none to verify.
func resolveFile(f *cmdutil.Factory, arg string) (sessfmt.Ref, error) {
	if f.Registry == nil {
		return sessfmt.Ref{}, errors.New("internal error: no format registry on the factory")
	}
	ref, err := f.Registry.Resolve(arg)
	if err != nil {
		var amb *sessfmt.AmbiguousError
		if errors.As(err, &amb) {
			return ref, &cmdutil.UsageError{Err: err}
		}
		return ref, err
	}
	if ref.ID != "" {
		agent := ref.Agent
		if agent == "" {
			agent = ref.Format
		}
		return ref, fmt.Errorf("blob verify is %w (%s sessions keep no blob references)", sessfmt.ErrUnsupported, agent)
	}
	return ref, nil
}

func writeVerify(opts *VerifyOptions, rep VerifyReport) {
	w := opts.IO.Out
	st := render.NewStyles(opts.IO)
	for _, u := range rep.Sessions {
		fmt.Fprintf(w, "%s %s: %s\n", st.Err.Sprint("cannot check"), render.EscapeLine(u.Path), render.EscapeLine(u.Err))
	}
	for _, vs := range rep.Stores {
		agent := vs.Agent
		if agent == "" {
			agent = "unknown agent"
		}
		if vs.Error != "" {
			fmt.Fprintf(w, "blob store %s (%s): %s %s\n", render.EscapeLine(vs.Dir), agent, st.Err.Sprint("cannot read:"), render.EscapeLine(vs.Error))
			continue
		}
		n := len(vs.Results)
		summary := fmt.Sprintf("%d ok", vs.Counts[string(blob.StatusOK)])
		for _, s := range []blob.Status{blob.StatusMissing, blob.StatusCorrupt, blob.StatusUnreadable, blob.StatusSymlink, blob.StatusNotRegular, blob.StatusOddName} {
			if c := vs.Counts[string(s)]; c > 0 {
				summary += fmt.Sprintf(", %d %s", c, s)
			}
		}
		what := plural(n, "file", "files")
		if len(opts.Sessions) > 0 {
			what = plural(n, "referenced blob", "referenced blobs")
		}
		fmt.Fprintf(w, "blob store %s (%s): %d %s checked: %s\n", render.EscapeLine(vs.Dir), agent, n, what, summary)
		for _, r := range vs.Results {
			if !r.Status.Problem() && !opts.All {
				continue
			}
			label := fmt.Sprintf("%-11s", r.Status)
			if r.Status.Problem() {
				label = st.Err.Sprint(label)
			}
			line := fmt.Sprintf("  %s %s", label, render.EscapeLine(r.Name))
			switch {
			case r.Actual != nil:
				line += "  (its bytes hash to " + r.Actual.String() + ")"
			case r.Err != "":
				line += "  (" + render.EscapeLine(r.Err) + ")"
			}
			fmt.Fprintln(w, line)
			for _, s := range r.Sessions {
				if r.Status.Problem() {
					fmt.Fprintf(w, "              referenced by %s\n", render.EscapeLine(filepath.Clean(s)))
				}
			}
		}
	}
	if rep.Problems > 0 && !opts.IO.Quiet() {
		fmt.Fprintln(opts.IO.ErrOut, "a missing or corrupt blob can only come back from a backup; oh-my-pi sends the reference text instead of the image")
	}
}
