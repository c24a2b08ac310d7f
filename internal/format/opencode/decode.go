package opencode

import (
	"encoding/json"
)

// rawTokens is the token object of messages, step-finish parts and sessions.
type rawTokens struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

func (r *rawTokens) tokens() *Tokens {
	if r == nil {
		return nil
	}
	return &Tokens{Input: r.Input, Output: r.Output, Reasoning: r.Reasoning, CacheRead: r.Cache.Read, CacheWrite: r.Cache.Write}
}

// rawSession is Session.Info as stored in JSON files and exports.
type rawSession struct {
	ID          string      `json:"id"`
	Slug        string      `json:"slug"`
	ProjectID   string      `json:"projectID"`
	WorkspaceID string      `json:"workspaceID"`
	Directory   string      `json:"directory"`
	ParentID    string      `json:"parentID"`
	Title       string      `json:"title"`
	Version     string      `json:"version"`
	Cost        looseNumber `json:"cost"`
	Tokens      *rawTokens  `json:"tokens"`
	Revert      *Revert     `json:"revert"`
	Time        struct {
		Created  int64 `json:"created"`
		Updated  int64 `json:"updated"`
		Archived int64 `json:"archived"`
	} `json:"time"`
}

func (r *rawSession) session() Session {
	s := Session{
		ID: r.ID, ProjectID: r.ProjectID, WorkspaceID: r.WorkspaceID, Directory: r.Directory,
		Title: r.Title, Slug: r.Slug, Version: r.Version, ParentID: r.ParentID,
		Created: msTime(r.Time.Created), Updated: msTime(r.Time.Updated), Archived: msTime(r.Time.Archived),
		Cost: float64(r.Cost), Revert: r.Revert, Parts: -1,
	}
	if t := r.Tokens.tokens(); t != nil {
		s.Tokens = *t
	}
	return s
}

// rawMessage is MessageV2.Info (user or assistant).
type rawMessage struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionID"`
	Role       string `json:"role"`
	ParentID   string `json:"parentID"`
	Agent      string `json:"agent"`
	Mode       string `json:"mode"`
	ProviderID string `json:"providerID"`
	ModelID    string `json:"modelID"`
	Model      *struct {
		ProviderID string `json:"providerID"`
		ModelID    string `json:"modelID"`
	} `json:"model"`
	Summary json.RawMessage `json:"summary"` // bool on assistant, object on user
	Finish  string          `json:"finish"`
	Cost    looseNumber     `json:"cost"`
	Tokens  *rawTokens      `json:"tokens"`
	Error   *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
		Message string `json:"message"`
	} `json:"error"`
	Time struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
}

// looseNumber is a number that other shapes (an object, a string, null)
// decode to 0 instead of failing the whole record: OpenCode stores the
// message as it is, and a cost written by another tool as
// {"input":…,"output":…} must not hide the message (field corpus).
type looseNumber float64

// UnmarshalJSON takes a JSON number; anything else is 0.
func (n *looseNumber) UnmarshalJSON(b []byte) error {
	var f float64
	if json.Unmarshal(b, &f) == nil {
		*n = looseNumber(f)
	} else {
		*n = 0
	}
	return nil
}

// decodeMessage decodes message JSON. id and sessionID override the JSON
// (the database strips them from data; OpenCode's importer takes them from paths).
func decodeMessage(data []byte, id, sessionID string) (Message, error) {
	var r rawMessage
	if err := json.Unmarshal(data, &r); err != nil {
		return Message{}, err
	}
	m := Message{
		ID: r.ID, SessionID: r.SessionID, Role: r.Role, ParentID: r.ParentID,
		Created: msTime(r.Time.Created), Completed: msTime(r.Time.Completed),
		Agent: r.Agent, Mode: r.Mode, ProviderID: r.ProviderID, ModelID: r.ModelID,
		Finish: r.Finish, Cost: float64(r.Cost), Tokens: r.Tokens.tokens(), Raw: json.RawMessage(data),
	}
	if id != "" {
		m.ID = id
	}
	if sessionID != "" {
		m.SessionID = sessionID
	}
	if r.Model != nil {
		if m.ProviderID == "" {
			m.ProviderID = r.Model.ProviderID
		}
		if m.ModelID == "" {
			m.ModelID = r.Model.ModelID
		}
	}
	if string(r.Summary) == "true" {
		m.Summary = true
	}
	if r.Error != nil {
		msg := r.Error.Data.Message
		if msg == "" {
			msg = r.Error.Message
		}
		m.Error = &MessageError{Name: r.Error.Name, Message: msg}
	}
	return m, nil
}

// rawPart covers every part type; only the fields of its type are filled.
type rawPart struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	Tool      string `json:"tool"`
	CallID    string `json:"callID"`
	State     *struct {
		Status   string          `json:"status"`
		Input    json.RawMessage `json:"input"`
		Output   json.RawMessage `json:"output"`
		Title    string          `json:"title"`
		Error    json.RawMessage `json:"error"`
		Metadata *struct {
			SessionID string `json:"sessionId"`
		} `json:"metadata"`
		Time *struct {
			Compacted int64 `json:"compacted"`
		} `json:"time"`
	} `json:"state"`
	Mime        string          `json:"mime"`
	Filename    string          `json:"filename"`
	URL         string          `json:"url"`
	Reason      string          `json:"reason"`
	Cost        looseNumber     `json:"cost"`
	Tokens      *rawTokens      `json:"tokens"`
	Auto        bool            `json:"auto"`
	Overflow    bool            `json:"overflow"`
	TailStartID string          `json:"tail_start_id"`
	Agent       string          `json:"agent"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Prompt      string          `json:"prompt"`
	Files       json.RawMessage `json:"files"`
}

// jsonText renders a JSON value as text: strings unquoted, others verbatim.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// decodePart decodes part JSON; non-empty ids override the JSON.
func decodePart(data []byte, id, messageID, sessionID string) (Part, error) {
	var r rawPart
	if err := json.Unmarshal(data, &r); err != nil {
		return Part{}, err
	}
	p := Part{
		ID: r.ID, MessageID: r.MessageID, SessionID: r.SessionID, Type: r.Type,
		Text: r.Text, Synthetic: r.Synthetic, Ignored: r.Ignored,
		Tool: r.Tool, CallID: r.CallID, Mime: r.Mime, Filename: r.Filename, URL: r.URL,
		Reason: r.Reason, Cost: float64(r.Cost), Tokens: r.Tokens.tokens(),
		Auto: r.Auto, Overflow: r.Overflow, TailStartID: r.TailStartID,
		Agent: r.Agent, Description: r.Description, Prompt: r.Prompt,
		Raw: json.RawMessage(data),
	}
	if p.Type == "agent" && p.Agent == "" {
		p.Agent = r.Name
	}
	if id != "" {
		p.ID = id
	}
	if messageID != "" {
		p.MessageID = messageID
	}
	if sessionID != "" {
		p.SessionID = sessionID
	}
	if r.State != nil {
		p.Status = r.State.Status
		p.Title = r.State.Title
		p.Input = r.State.Input
		p.Output = jsonText(r.State.Output)
		p.ToolError = jsonText(r.State.Error)
		if r.State.Time != nil && r.State.Time.Compacted > 0 {
			p.Compacted = true
		}
		if r.State.Metadata != nil {
			p.ChildID = r.State.Metadata.SessionID
		}
	}
	if len(r.Files) > 0 && r.Files[0] == '[' {
		var files []string
		if json.Unmarshal(r.Files, &files) == nil {
			p.Files = files
		}
	}
	return p, nil
}

// Unfinished reports whether a tool part was left pending or running.
func (p *Part) Unfinished() bool {
	return p.Type == "tool" && (p.Status == "pending" || p.Status == "running")
}
