package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/pflag"
)

// AddSessionFilterFlags adds --agent and --project, the discovery filters
// of every command that works over many sessions (list, search, stats, du,
// prune); CheckAgents checks the first.
func AddSessionFilterFlags(fl *pflag.FlagSet, agents *[]string, project *string) {
	fl.StringSliceVar(agents, "agent", nil, "Only these agents (repeatable): "+strings.Join(discover.Agents(), ", "))
	fl.StringVar(project, "project", "", "Only sessions whose cwd is `PATH` or below (. = current directory)")
}

// AddRootFlags adds --root (extra session roots) and --no-cache, with the
// usage texts of the commands that read the list cache without being list.
func AddRootFlags(fl *pflag.FlagSet, roots *[]string, noCache *bool) {
	fl.StringArrayVar(roots, "root", nil, "Extra session root `KIND=PATH` (repeatable)")
	fl.BoolVar(noCache, "no-cache", false, "Do not use or update the list cache")
}

// AddLeafFlag adds --leaf (an entry id or unique id prefix) with the
// command's own usage text.
func AddLeafFlag(fl *pflag.FlagSet, p *string, usage string) {
	fl.StringVar(p, "leaf", "", usage)
}

// AddDialectFlag adds --dialect, the pi-family dialect (default auto).
func AddDialectFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "dialect", "auto", "pi-family dialect: auto, pi, omp or xcsh (pi-0.73: pi as release 0.73.1 reads it)")
}

// AddLeafModeFlag adds --leaf-mode, Claude Code's leaf choice (default
// last-prompt).
func AddLeafModeFlag(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "leaf-mode", "last-prompt", "Claude Code leaf choice: last-prompt, picker, resume or file-order")
}

// CheckOpenOptions asks the formats whether the session options are valid
// (a known dialect and leaf mode); an invalid one is a flag error (exit 2).
func (f *Factory) CheckOpenOptions(o sessfmt.OpenOptions) error {
	if f.Registry == nil {
		return nil
	}
	if err := f.Registry.CheckOptions(o); err != nil {
		return FlagErrorf("%v", err)
	}
	return nil
}

// PrintProblems prints the problems the reader saw while opening s on
// stderr (at most 20; none with -q), leaving out those of code skip ("" for
// none): the problem a command reports in its own words.
func (f *Factory) PrintProblems(s sessfmt.Session, skip string) {
	if f.IO.Quiet() {
		return
	}
	ps := s.Problems()
	if skip != "" {
		kept := ps[:0:0]
		for _, p := range ps {
			if p.Code != skip {
				kept = append(kept, p)
			}
		}
		ps = kept
	}
	render.Diagnostics(f.IO.ErrOut, s.Ref().String(), ps, render.NewStyles(f.IO), 20)
}

// PrintNotice prints what a reader says about a view on stderr (none with
// -q): "<ref or where>[:<line>]: [warning: ]<text>[ [<code>]]".
func (f *Factory) PrintNotice(ref sessfmt.Ref, n sessfmt.Notice) {
	if f.IO.Quiet() {
		return
	}
	loc := n.Where
	if loc == "" {
		loc = ref.String()
	}
	loc = render.EscapeLine(loc)
	if n.Line > 0 {
		loc += ":" + strconv.Itoa(n.Line)
	}
	text := render.EscapeLine(n.Text)
	if n.Warning {
		text = "warning: " + text
	}
	if n.Code != "" {
		text += " [" + n.Code + "]"
	}
	fmt.Fprintf(f.IO.ErrOut, "%s: %s\n", loc, text)
}

// LeafChoiceOf returns how s's leaf was chosen and the code of the problem
// that stands for a disagreement of the leaf modes, which a command that
// prints PrintLeafChoice leaves out of PrintProblems ("" when s has no leaf
// modes).
func LeafChoiceOf(s sessfmt.Session) (sessfmt.LeafChoice, string) {
	lc, ok := s.(sessfmt.LeafChooser)
	if !ok {
		return sessfmt.LeafChoice{}, ""
	}
	c := lc.LeafChoice()
	return c, c.ProblemCode
}

// PrintLeafChoice prints "<ref>: warning: <summary> (<verb> <mode>;
// --leaf-mode picks another)" when the leaf modes disagree (none with -q).
func (f *Factory) PrintLeafChoice(s sessfmt.Session, c sessfmt.LeafChoice, verb string) {
	if f.IO.Quiet() || !c.Disagree {
		return
	}
	fmt.Fprintf(f.IO.ErrOut, "%s: warning: %s (%s %s; --leaf-mode picks another)\n",
		render.EscapeLine(s.Ref().String()), render.EscapeLine(c.Summary), verb, c.Mode)
}
