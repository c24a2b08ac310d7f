package blob_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sessctl/sessctl/internal/blob"
)

// A thin `sessctl blob-gc` for one agent: mark with that agent's session
// roots only, plan (the dry run), then apply if asked.
func Example_gc() {
	agent, _ := os.MkdirTemp("", "blob-example-")
	defer os.RemoveAll(agent)
	store := blob.Store{Dir: filepath.Join(agent, "blobs")}
	os.MkdirAll(store.Dir, 0o755)
	os.MkdirAll(filepath.Join(agent, "sessions"), 0o755)
	old := time.Now().Add(-48 * time.Hour)
	put := func(data string) blob.Hash {
		h := blob.Hash(sha256.Sum256([]byte(data)))
		os.WriteFile(store.Path(h), []byte(data), 0o644)
		os.Chtimes(store.Path(h), old, old)
		return h
	}
	used, unused := put("used image"), put("unused image")
	os.WriteFile(filepath.Join(agent, "sessions", "s.jsonl"),
		[]byte(`{"type":"image","data":"`+used.Ref()+`"}`+"\n"), 0o644)

	ctx := context.Background()
	marks, _ := blob.Mark(ctx, blob.Source{
		Roots:         []string{filepath.Join(agent, "sessions")},            // + --sessions-dir / config extras
		OptionalRoots: []string{filepath.Join(agent, "archive", "sessions")}, // may not exist
	}, 2)
	plan, _ := blob.Plan(store, marks, time.Hour, time.Now())
	for _, g := range plan.Groups {
		fmt.Println(g.Hash == used, g.Hash == unused, g.Reason, g.Bytes)
	}
	fmt.Println("would free", plan.DeleteBytes, "bytes; blocked:", plan.Blocked())

	res, err := blob.Apply(ctx, plan, blob.ApplyOptions{})
	fmt.Println("deleted", len(res.Deleted), "freed", res.Freed, err)
	_, err = os.Stat(store.Path(unused))
	fmt.Println(os.IsNotExist(err))
	// Unordered output:
	// true false referenced 10
	// false true delete 12
	// would free 12 bytes; blocked: false
	// deleted 1 freed 12 <nil>
	// true
}
