package app

import (
	blobcmd "github.com/sessctl/sessctl/internal/cmd/blob"
	"github.com/sessctl/sessctl/internal/cmd/check"
	"github.com/sessctl/sessctl/internal/cmd/compactview"
	ducmd "github.com/sessctl/sessctl/internal/cmd/du"
	exportcmd "github.com/sessctl/sessctl/internal/cmd/export"
	forkcmd "github.com/sessctl/sessctl/internal/cmd/fork"
	"github.com/sessctl/sessctl/internal/cmd/list"
	migratecmd "github.com/sessctl/sessctl/internal/cmd/migrate"
	prunecmd "github.com/sessctl/sessctl/internal/cmd/prune"
	relocatecmd "github.com/sessctl/sessctl/internal/cmd/relocate"
	repaircmd "github.com/sessctl/sessctl/internal/cmd/repair"
	restorecmd "github.com/sessctl/sessctl/internal/cmd/restore"
	resumecmd "github.com/sessctl/sessctl/internal/cmd/resume"
	searchcmd "github.com/sessctl/sessctl/internal/cmd/search"
	"github.com/sessctl/sessctl/internal/cmd/show"
	statscmd "github.com/sessctl/sessctl/internal/cmd/stats"
	"github.com/sessctl/sessctl/internal/cmd/tree"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Registered commands, one line each. A command that is not ready is not listed.
func init() {
	register(func(f *cmdutil.Factory) *cobra.Command { return list.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return show.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return tree.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return compactview.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return exportcmd.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return searchcmd.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return statscmd.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return resumecmd.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { return ducmd.NewCmd(f, nil) })
	register(func(f *cmdutil.Factory) *cobra.Command { c := check.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { c := repaircmd.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { c := forkcmd.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { c := migratecmd.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command {
		c := relocatecmd.NewCmd(f, nil)
		c.GroupID = "write"
		return c
	})
	register(func(f *cmdutil.Factory) *cobra.Command { c := prunecmd.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { c := restorecmd.NewCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { c := blobcmd.NewGCCmd(f, nil); c.GroupID = "write"; return c })
	register(func(f *cmdutil.Factory) *cobra.Command { return blobcmd.NewCmd(f, nil, nil) })
}
