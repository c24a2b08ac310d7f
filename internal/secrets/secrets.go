// Package secrets finds credentials in session text and redacts them.
//
// The rules are gitleaks' default rule set (gitleaks v8.30.1,
// config/gitleaks.toml, MIT licence, kept verbatim in gitleaks/ with its
// licence): about 220 rules maintained and tested against real leaks by the
// gitleaks project, rather than home-made regular expressions. The file is
// embedded as data and read with viper (already a dependency), so sessctl
// does not pull in gitleaks' module graph (archive readers, a WebAssembly
// RE2, a logger: some 40 modules). To update: copy config/gitleaks.toml and
// LICENSE of a newer gitleaks release into gitleaks/.
//
// Detection follows gitleaks' detector for one text: a rule runs only when
// the lowercased text holds one of its keywords (or it has none); each
// match of its regex gives a secret (the rule's secret group, else the
// first non-empty group, else the whole match), kept when its Shannon
// entropy is above the rule's threshold and no global or rule allowlist
// (regexes on the secret, match or line; stopwords in the secret; AND/OR
// conditions) allows it. Path-only rules and path allowlists do not apply
// to transcript text and are left out.
package secrets

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/viper"
)

//go:embed gitleaks/gitleaks.toml
var defaultRules string

// Version names the rule set.
const Version = "gitleaks v8.30.1 default rules"

// Rule is one detection rule.
type Rule struct {
	ID          string
	Description string
	re          *regexp.Regexp
	secretGroup int
	entropy     float64
	keywords    []string
	allow       []*allowlist
}

type allowlist struct {
	and       bool
	target    string // secret, match, line
	regexes   []*regexp.Regexp
	stopwords []string
	hasPaths  bool
}

// Detector holds compiled rules.
type Detector struct {
	Rules  []*Rule
	global []*allowlist
}

type tomlAllow struct {
	Condition   string
	RegexTarget string
	Regexes     []string
	StopWords   []string
	Paths       []string
}

type tomlRule struct {
	ID          string
	Description string
	Regex       string
	Path        string
	SecretGroup int
	Entropy     float64
	Keywords    []string
	AllowList   *tomlAllow
	Allowlists  []*tomlAllow
}

type tomlConfig struct {
	AllowList  *tomlAllow
	Allowlists []*tomlAllow
	Rules      []tomlRule
}

var (
	loadOnce sync.Once
	loaded   *Detector
	loadErr  error
)

// Default returns the detector of the embedded gitleaks rules (compiled
// once).
func Default() (*Detector, error) {
	loadOnce.Do(func() { loaded, loadErr = Parse(defaultRules) })
	return loaded, loadErr
}

// Parse compiles a gitleaks TOML configuration.
func Parse(toml string) (*Detector, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(toml)); err != nil {
		return nil, fmt.Errorf("secrets: reading rules: %w", err)
	}
	var c tomlConfig
	if err := v.Unmarshal(&c); err != nil {
		return nil, fmt.Errorf("secrets: reading rules: %w", err)
	}
	d := &Detector{}
	var err error
	if d.global, err = allowlists(c.AllowList, c.Allowlists); err != nil {
		return nil, err
	}
	for _, tr := range c.Rules {
		if tr.Regex == "" {
			continue // path-only rule: files, not text
		}
		re, err := regexp.Compile(tr.Regex)
		if err != nil {
			return nil, fmt.Errorf("secrets: rule %s: %w", tr.ID, err)
		}
		r := &Rule{ID: tr.ID, Description: tr.Description, re: re, secretGroup: tr.SecretGroup, entropy: tr.Entropy}
		for _, k := range tr.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		if r.allow, err = allowlists(tr.AllowList, tr.Allowlists); err != nil {
			return nil, fmt.Errorf("secrets: rule %s: %w", tr.ID, err)
		}
		d.Rules = append(d.Rules, r)
	}
	if len(d.Rules) == 0 {
		return nil, fmt.Errorf("secrets: no rules")
	}
	return d, nil
}

func allowlists(one *tomlAllow, many []*tomlAllow) ([]*allowlist, error) {
	if one != nil {
		many = append([]*tomlAllow{one}, many...)
	}
	var out []*allowlist
	for _, t := range many {
		a := &allowlist{and: strings.EqualFold(t.Condition, "AND"), target: strings.ToLower(t.RegexTarget), hasPaths: len(t.Paths) > 0}
		for _, s := range t.Regexes {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, err
			}
			a.regexes = append(a.regexes, re)
		}
		for _, w := range t.StopWords {
			a.stopwords = append(a.stopwords, strings.ToLower(w))
		}
		out = append(out, a)
	}
	return out, nil
}

// Finding is one secret found in a text. It never holds the secret: Start
// and End locate it in the text that was scanned.
type Finding struct {
	// Kind is the rule id (aws-access-token, github-pat, generic-api-key, …).
	Kind       string
	Start, End int
}

// Find returns the secrets in text, in order of position; overlapping
// findings are merged into the earliest, longest one. As gitleaks' detector
// does, a finding of a generic rule (generic-api-key) is dropped when a
// specific rule found a secret spanning it, so the specific kind is the one
// reported (snyk-api-token, not generic-api-key).
func (d *Detector) Find(text string) []Finding {
	if text == "" {
		return nil
	}
	low := strings.ToLower(text)
	var out []Finding
	for _, r := range d.Rules {
		if len(r.keywords) > 0 {
			found := false
			for _, k := range r.keywords {
				if strings.Contains(low, k) {
					found = true
					break
				}
			}
			if !found {
				continue
			}
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			ms, me := m[0], m[1]
			match := strings.Trim(text[ms:me], "\n")
			if i := strings.Index(text[ms:me], match); i >= 0 {
				ms, me = ms+i, ms+i+len(match)
			}
			ss, se := ms, me
			// The secret group, as gitleaks picks it from the match.
			sub := r.re.FindStringSubmatchIndex(match)
			if len(sub) >= 4 {
				if r.secretGroup > 0 {
					if 2*r.secretGroup+1 >= len(sub) {
						continue
					}
					if sub[2*r.secretGroup] >= 0 {
						ss, se = ms+sub[2*r.secretGroup], ms+sub[2*r.secretGroup+1]
					}
				} else {
					for g := 1; 2*g+1 < len(sub); g++ {
						if sub[2*g] >= 0 && sub[2*g+1] > sub[2*g] {
							ss, se = ms+sub[2*g], ms+sub[2*g+1]
							break
						}
					}
				}
			}
			secret := text[ss:se]
			if strings.Contains(secret, "[redacted:") {
				continue // our own marker, in a value a rule reads as a password
			}
			if r.entropy != 0 && entropy(secret) <= r.entropy {
				continue
			}
			line := lineAround(text, ms, me)
			if allowed(d.global, secret, match, line) || allowed(r.allow, secret, match, line) {
				continue
			}
			out = append(out, Finding{Kind: r.ID, Start: ss, End: se})
		}
	}
	return merge(preferSpecific(out))
}

// preferSpecific drops each finding of a generic rule whose span another,
// non-generic finding covers (gitleaks drops a generic finding whose secret
// a specific one on the same line holds; here the span must be covered, so
// that the same key written twice is still redacted twice).
func preferSpecific(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	generic := func(f Finding) bool { return strings.Contains(strings.ToLower(f.Kind), "generic") }
	out := fs[:0:0]
	for i, f := range fs {
		drop := false
		if generic(f) {
			for j, g := range fs {
				if j != i && !generic(g) && g.Start <= f.Start && f.End <= g.End {
					drop = true
					break
				}
			}
		}
		if !drop {
			out = append(out, f)
		}
	}
	return out
}

func lineAround(text string, s, e int) string {
	a := strings.LastIndexByte(text[:s], '\n') + 1
	b := strings.IndexByte(text[e:], '\n')
	if b < 0 {
		return text[a:]
	}
	return text[a : e+b]
}

func allowed(lists []*allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.target {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := false
		if target != "" {
			for _, re := range a.regexes {
				if re.MatchString(target) {
					regexOK = true
					break
				}
			}
		}
		stopOK := false
		if secret != "" {
			low := strings.ToLower(secret)
			for _, w := range a.stopwords {
				if strings.Contains(low, w) {
					stopOK = true
					break
				}
			}
		}
		if a.and {
			var checks []bool
			if a.hasPaths {
				checks = append(checks, false) // transcripts are no repository path
			}
			if len(a.regexes) > 0 {
				checks = append(checks, regexOK)
			}
			if len(a.stopwords) > 0 {
				checks = append(checks, stopOK)
			}
			all := len(checks) > 0
			for _, c := range checks {
				all = all && c
			}
			if all {
				return true
			}
		} else if regexOK || stopOK {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s per character, as gitleaks computes
// it (rune counts over the byte length).
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	inv := 1.0 / float64(len(s))
	e := 0.0
	for _, n := range counts {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	return e
}

func merge(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		return fs[i].End > fs[j].End
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.Start < last.End {
			if f.End > last.End {
				last.End = f.End
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// Redact replaces every secret of text with "[redacted:<kind>]" and says
// how many it replaced. It repeats until a scan finds none, so what it
// returns holds no secret the rules know.
func (d *Detector) Redact(text string) (string, int) {
	total := 0
	for round := 0; round < 4; round++ {
		fs := d.Find(text)
		if len(fs) == 0 {
			break
		}
		var b strings.Builder
		b.Grow(len(text))
		at := 0
		for _, f := range fs {
			b.WriteString(text[at:f.Start])
			b.WriteString("[redacted:" + f.Kind + "]")
			at = f.End
		}
		b.WriteString(text[at:])
		text = b.String()
		total += len(fs)
	}
	return text, total
}
