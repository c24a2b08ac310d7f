package sessopen

import (
	"errors"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/opencode"
)

// OpenCode loads the OpenCode session arg names (a "ses_…" id or prefix, a
// "<data dir or db>#<id>" reference, or an `opencode export` file); handled
// is false when arg is none of these. --leaf is refused (an OpenCode session
// is a list of messages), and an unknown or ambiguous id is a usage error.
func OpenCode(arg, leaf string, getenv func(string) string) (t *opencode.Transcript, handled bool, err error) {
	ref, ok := opencode.ParseRef(arg, getenv)
	if !ok {
		return nil, false, nil
	}
	if leaf != "" {
		return nil, true, cmdutil.UsageErrorf("--leaf: an OpenCode session is a list of messages; there is no leaf to choose")
	}
	t, err = opencode.LoadRef(ref)
	if errors.Is(err, opencode.ErrAmbiguous) || errors.Is(err, opencode.ErrNoSession) {
		return nil, true, cmdutil.UsageErrorf("%v", err)
	}
	return t, true, err
}
