package pi

import (
	"fmt"
	"strings"
)

// ompHeaderLines describes the settings part of an oh-my-pi or xcsh context
// for people: model roles, thinking level, service tier, mode, injected
// rules and (xcsh) the active context. Defaults are left out.
func ompHeaderLines(ctx *Context) []string {
	get := func(k string) []byte {
		for _, m := range ctx.Fields {
			if m.Key == k {
				return m.Value
			}
		}
		return nil
	}
	var out []string
	if ms := members(get("models")); len(ms) > 0 {
		parts := make([]string, len(ms))
		for i, m := range ms {
			parts[i] = keyName(m.key) + " " + valueText(m.val)
		}
		out = append(out, "models: "+strings.Join(parts, ", "))
	}
	var settings []string
	if t := get("thinkingLevel"); t != nil && !isStr(t, "off") {
		s := "thinking " + valueText(t)
		if c := get("configuredThinkingLevel"); c != nil && string(trimWS(c)) != string(trimWS(t)) {
			s += " (configured " + valueText(c) + ")"
		}
		settings = append(settings, s)
	}
	if st := get("serviceTier"); st != nil {
		settings = append(settings, "service tier "+valueText(st))
	}
	if m := get("mode"); m != nil && !isStr(m, "none") {
		s := "mode " + valueText(m)
		if d := get("modeData"); d != nil {
			s += " " + compactJSON(d)
		}
		settings = append(settings, s)
	}
	if len(settings) > 0 {
		out = append(out, strings.Join(settings, " · "))
	}
	if n := elements(get("injectedTtsrRules")); len(n) > 0 {
		out = append(out, fmt.Sprintf("injected rules (%d): %s", len(n), joinValues(n)))
	}
	if name := get("activeContextName"); name != nil {
		s := "active context " + valueText(name)
		if t := get("activeContextTenant"); t != nil {
			s += " (tenant " + valueText(t) + ")"
		}
		out = append(out, s)
	}
	if name := get("activeProfileName"); name != nil {
		s := "active profile " + valueText(name)
		if t := get("activeProfileTenant"); t != nil {
			s += " (tenant " + valueText(t) + ")"
		}
		out = append(out, s)
	}
	if string(trimWS(get("hasPersistedMCPToolSelection"))) == "true" {
		n := elements(get("selectedMCPToolNames"))
		out = append(out, fmt.Sprintf("MCP tools selected (%d): %s", len(n), joinValues(n)))
	}
	return out
}

// valueText shows a raw value: strings unquoted, anything else as compact JSON.
func valueText(raw []byte) string {
	if s, ok := strOf(raw); ok {
		return s
	}
	return compactJSON(trimWS(raw))
}

func joinValues(vs [][]byte) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = valueText(v)
	}
	return strings.Join(parts, ", ")
}
