// titles.mjs asks the Claude Agent SDK (0.3.330, the package that ships
// Claude Code 2.1.330) how it lists the parity sessions: listSessions() over
// a fake CLAUDE_CONFIG_DIR holding every case and every title case, and
// getSessionInfo() for each session file. Run by titles.sh; writes JSON to
// stdout.
import { listSessions, getSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import { readdirSync } from 'node:fs';

const dir = process.argv[2];
const list = await listSessions();
const out = { listSessions: [], getSessionInfo: {} };
for (const s of list) {
  out.listSessions.push({
    sessionId: s.sessionId, summary: s.summary, customTitle: s.customTitle ?? null,
    firstPrompt: s.firstPrompt ?? null, gitBranch: s.gitBranch ?? null, cwd: s.cwd ?? null, tag: s.tag ?? null,
  });
}
out.listSessions.sort((a, b) => a.sessionId.localeCompare(b.sessionId));
for (const f of readdirSync(dir).sort()) {
  if (!f.endsWith('.jsonl')) continue;
  const id = f.slice(0, -6);
  const s = await getSessionInfo(id);
  out.getSessionInfo[id] = s ? { summary: s.summary, customTitle: s.customTitle ?? null, firstPrompt: s.firstPrompt ?? null,
    gitBranch: s.gitBranch ?? null, cwd: s.cwd ?? null, tag: s.tag ?? null } : null;
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
