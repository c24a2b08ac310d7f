import json, os, sys
out = sys.argv[1]
def w(rel, lines, raw=None):
    p = os.path.join(out, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        if raw is not None:
            f.write(raw); return
        for l in lines:
            f.write((l if isinstance(l, str) else json.dumps(l, separators=(',', ':'), ensure_ascii=False)).encode() + b'\n')
def ms(s):
    import datetime
    return int(datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp() * 1000)
def msg(i, p, ts, role, content, **kw):
    m = {"role": role, "content": content, "timestamp": ms(ts)}
    m.update(kw)
    return {"type": "message", "id": i, "parentId": p, "timestamp": ts, "message": m}

A1 = "019a0000-0000-7000-8000-00000000a001"
A2 = "019a0000-0000-7000-8000-00000000a002"
B1 = "019a0000-0000-7000-8000-00000000b001"
a1 = "2026-03-01T10-00-00-000Z_" + A1 + ".jsonl"
w(".pi/agent/sessions/--home-u-proj-a--/" + a1, [
    {"type": "session", "version": 3, "id": A1, "timestamp": "2026-03-01T10:00:00.000Z", "cwd": "/home/u/proj-a"},
    {"type": "model_change", "id": "e0000001", "parentId": None, "timestamp": "2026-03-01T10:00:00.100Z", "provider": "anthropic", "modelId": "claude-sonnet-4-5"},
    msg("e0000002", "e0000001", "2026-03-01T10:00:05.000Z", "user", [{"type": "text", "text": "Refactor the parser"}, {"type": "text", "text": "please"}]),
    msg("e0000003", "e0000002", "2026-03-01T10:00:20.000Z", "assistant", [{"type": "text", "text": "Done."}], provider="anthropic", model="claude-sonnet-4-5", stopReason="stop"),
    {"type": "session_info", "id": "e0000004", "parentId": "e0000003", "timestamp": "2026-03-01T10:01:00.000Z", "name": "  refactor parser  "},
    msg("e0000005", "e0000004", "2026-03-01T10:02:00.000Z", "user", "and the lexer"),
    msg("e0000006", "e0000005", "2026-03-01T10:03:00.000Z", "assistant", [{"type": "text", "text": "Lexer done."}], provider="anthropic", model="claude-sonnet-4-5", stopReason="stop"),
])
w(".pi/agent/sessions/--home-u-proj-a-sub--/2026-03-02T09-00-00-000Z_" + A2 + ".jsonl", [
    {"type": "session", "version": 3, "id": A2, "timestamp": "2026-03-02T09:00:00.000Z", "cwd": "/home/u/proj-a/sub"},
    msg("f0000001", None, "2026-03-02T09:00:10.000Z", "user", "fix the\nbuild on linux"),
    msg("f0000002", "f0000001", "2026-03-02T09:05:00.000Z", "assistant", [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Fixed."}], provider="openai", model="gpt-5", stopReason="stop"),
])
w(".pi/agent/sessions/--home-u-proj-b--/2026-03-03T08-00-00-000Z_" + B1 + ".jsonl", [
    {"type": "session", "version": 3, "id": B1, "timestamp": "2026-03-03T08:00:00.000Z", "cwd": "/home/u/proj-b",
     "parentSession": "/home/u/.pi/agent/sessions/--home-u-proj-a--/" + a1},
    msg("e0000002", None, "2026-03-01T10:00:05.000Z", "user", [{"type": "text", "text": "Refactor the parser"}, {"type": "text", "text": "please"}]),
    msg("e0000003", "e0000002", "2026-03-01T10:00:20.000Z", "assistant", [{"type": "text", "text": "Done."}], provider="anthropic", model="claude-sonnet-4-5", stopReason="stop"),
    msg("g0000001", "e0000003", "2026-03-03T08:10:00.000Z", "user", "now in project b"),
])
# oh-my-pi 18: title slot, home-relative folder, nested subagent
C1 = "019b0000-0000-7000-8000-00000000c001"
slot = {"type": "title", "v": 1, "title": "omp slot title", "source": "user", "updatedAt": "2026-04-01T12:30:00.000Z", "pad": ""}
s = json.dumps(slot, separators=(',', ':'))
slot["pad"] = " " * (255 - len(s))
s = json.dumps(slot, separators=(',', ':'))
assert len(s.encode()) == 255
c1 = "2026-04-01T12-00-00-000Z_" + C1
w(".omp/agent/sessions/-proj-c/" + c1 + ".jsonl", [
    s,
    {"type": "session", "version": 3, "id": C1, "title": "old header title", "timestamp": "2026-04-01T12:00:00.000Z", "cwd": "/home/u/proj-c"},
    {"type": "model_change", "id": "0000c001", "parentId": None, "timestamp": "2026-04-01T12:00:00.100Z", "model": "anthropic/claude-opus-4"},
    msg("0000c002", "0000c001", "2026-04-01T12:00:10.000Z", "user", "explore the repo"),
    msg("0000c003", "0000c002", "2026-04-01T12:20:00.000Z", "assistant", [{"type": "text", "text": "Explored."}]),
])
w(".omp/agent/sessions/-proj-c/" + c1 + "/0-Explore.jsonl", [
    {"type": "session", "version": 3, "id": "019b0000-0000-7000-8000-00000000c0a1", "timestamp": "2026-04-01T12:00:20.000Z", "cwd": "/home/u/proj-c"},
    {"type": "session_init", "id": "0000d001", "parentId": None, "timestamp": "2026-04-01T12:00:20.000Z", "systemPrompt": "You explore.", "task": "list files", "tools": ["read", "ls"]},
    msg("0000d002", "0000d001", "2026-04-01T12:00:21.000Z", "user", "list files"),
    msg("0000d003", "0000d002", "2026-04-01T12:00:30.000Z", "assistant", [{"type": "text", "text": "a.go b.go"}]),
])
# oh-my-pi 14: tmp folder, legacy absolute folder, 17.2.x hashed folder
w(".omp/agent/sessions/-tmp-scratch/2026-02-01T00-00-00-000Z_0a1b2c3d4e5f6071.jsonl", [
    {"type": "session", "version": 3, "id": "0a1b2c3d4e5f6071", "title": "tmp work", "titleSource": "auto", "timestamp": "2026-02-01T00:00:00.000Z", "cwd": "/tmp/scratch"},
    msg("00007101", None, "2026-02-01T00:00:05.000Z", "user", "try something"),
    {"type": "mode_change", "id": "00007102", "parentId": "00007101", "timestamp": "2026-02-01T00:00:06.000Z", "mode": "plan"},
])
w(".omp/agent/sessions/--opt-x--/2026-01-15T00-00-00-000Z_0a1b2c3d4e5f6072.jsonl", [
    {"type": "session", "version": 3, "id": "0a1b2c3d4e5f6072", "timestamp": "2026-01-15T00:00:00.000Z", "cwd": "/opt/x"},
    msg("00007201", None, "2026-01-15T00:00:05.000Z", "user", "  \n  legacy absolute folder\nsecond line"),
])
w(".omp/agent/sessions/home-proj-d-6d1f0c3e9a7b2d4c8e5f1a0b3c6d9e2f4a7b0c1d2e3f4a5b6c7d8e9f0a1b2c3d/2026-05-01T00-00-00-000Z_019b0000-0000-7000-8000-00000000d001.jsonl", [
    {"type": "session", "version": 3, "id": "019b0000-0000-7000-8000-00000000d001", "timestamp": "2026-05-01T00:00:00.000Z", "cwd": "/home/u/proj-d"},
    msg("0000e001", None, "2026-05-01T00:00:05.000Z", "user", "hashed folder name"),
    {"type": "title_change", "id": "0000e002", "parentId": "0000e001", "timestamp": "2026-05-01T00:00:06.000Z", "title": "renamed by title_change", "source": "user"},
])
# xcsh (oh-my-pi 14 fork)
w(".xcsh/agent/sessions/-proj-e/2026-02-10T00-00-00-000Z_0b1b2c3d4e5f6073.jsonl", [
    {"type": "session", "version": 3, "id": "0b1b2c3d4e5f6073", "title": "xcsh session", "timestamp": "2026-02-10T00:00:00.000Z", "cwd": "/home/u/proj-e"},
    {"type": "context_change", "id": "00007301", "parentId": None, "timestamp": "2026-02-10T00:00:01.000Z", "contextName": "prod", "tenant": "t1", "namespace": "ns"},
    msg("00007302", "00007301", "2026-02-10T00:00:05.000Z", "user", "deploy"),
    msg("00007303", "00007302", "2026-02-10T00:01:00.000Z", "assistant", [{"type": "text", "text": "Deployed."}]),
])
# Claude Code
CL = "7f3c1a2b-1111-4222-8333-444455556666"
env = {"isSidechain": False, "userType": "external", "cwd": "/home/u/proj-a", "sessionId": CL, "version": "2.1.100", "gitBranch": "main"}
def cl(d): x = {"parentUuid": d.pop("parentUuid")}; x.update(env); x.update(d); return x
w(".claude/projects/-home-u-proj-a/" + CL + ".jsonl", [
    cl({"parentUuid": None, "type": "user", "message": {"role": "user", "content": "<command-name>/init</command-name>"}, "uuid": "c1000000-0000-4000-8000-000000000001", "timestamp": "2026-03-05T10:00:00.000Z", "isMeta": True}),
    cl({"parentUuid": "c1000000-0000-4000-8000-000000000001", "type": "user", "message": {"role": "user", "content": "Explain the claude listing"}, "uuid": "c1000000-0000-4000-8000-000000000002", "timestamp": "2026-03-05T10:00:01.000Z"}),
    cl({"parentUuid": "c1000000-0000-4000-8000-000000000002", "type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Sure."}], "stop_reason": None}, "uuid": "c1000000-0000-4000-8000-000000000003", "timestamp": "2026-03-05T10:00:09.000Z"}),
    {"type": "custom-title", "sessionId": CL, "customTitle": "claude titled"},
])
# Damaged pi files
bad = ".pi/agent/sessions/--home-u-bad--/"
w(bad + "2026-01-01T00-00-00-000Z_empty000-0000-7000-8000-000000000000.jsonl", [], raw=b"")
w(bad + "2026-01-02T00-00-00-000Z_hdronly0-0000-7000-8000-000000000000.jsonl", [
    {"type": "session", "version": 3, "id": "hdronly0-0000-7000-8000-000000000000", "timestamp": "2026-01-02T00:00:00.000Z", "cwd": "/home/u/bad"}])
w(bad + "2026-01-03T00-00-00-000Z_nohdr000-0000-7000-8000-000000000000.jsonl", [
    msg("h0000001", None, "2026-01-03T00:00:05.000Z", "user", "no header here"),
    msg("h0000002", "h0000001", "2026-01-03T00:00:06.000Z", "assistant", [{"type": "text", "text": "ok"}])])
torn = [json.dumps(x, separators=(',', ':')) for x in [
    {"type": "session", "version": 3, "id": "torn0000-0000-7000-8000-000000000000", "timestamp": "2026-01-04T00:00:00.000Z", "cwd": "/home/u/bad"},
    msg("i0000001", None, "2026-01-04T00:00:05.000Z", "user", "torn tail next"),
    msg("i0000002", "i0000009", "2026-01-04T00:00:06.000Z", "assistant", [{"type": "text", "text": "orphan reply"}])]]
w(bad + "2026-01-04T00-00-00-000Z_torn0000-0000-7000-8000-000000000000.jsonl", [], raw=("\n".join(torn) + "\nnot json at all\n" + '{"type":"message","id":"i00').encode())
w(bad + "junk.jsonl", [], raw=bytes(range(256)) * 4)
# A project folder that is a symlink to a folder outside the root
F1 = "019a0000-0000-7000-8000-00000000f001"
w("elsewhere/pi-proj-f/2026-03-04T00-00-00-000Z_" + F1 + ".jsonl", [
    {"type": "session", "version": 3, "id": F1, "timestamp": "2026-03-04T00:00:00.000Z", "cwd": "/home/u/proj-f"},
    msg("j0000001", None, "2026-03-04T00:00:05.000Z", "user", "behind a symlink"),
])
os.symlink("../../../elsewhere/pi-proj-f", os.path.join(out, ".pi/agent/sessions/--home-u-proj-f--"))
