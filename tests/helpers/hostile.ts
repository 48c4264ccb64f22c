import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_ROLLOUT } from '../fixtures/codex-rollout';

// Hostile transcripts: the committed fixtures of several dialects with every text a user can see
// (prompts, answers, thinking, tool names, inputs and results, summaries, file paths, titles,
// model names, cwd, git branch, subagent names, Codex thread names) carrying HTML and script,
// markdown links to javascript: and data:, remote images, ANSI and OSC terminal sequences (colour,
// cursor moves, OSC 8 hyperlinks, OSC 52 clipboard writes, title set), C1 controls, bidi
// overrides and isolates, zero-width characters, NUL, a lone surrogate and a very long word.
// Generated here, never copied from a real log.

export const HOSTILE_PARTS = {
  // The controls first: a name is cut at 200 characters (engine/parse/session-title.ts).
  colour: '\u001b[31mRED\u001b[0m',
  cursor: '\u001b[2J\u001b[H\u001b[1A\u001b[999D',
  osc8: '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\',
  osc52: '\u001b]52;c;cm0gLXJmIH4K\u0007',
  title: '\u001b]0;pwned\u0007',
  c1: '\u009b31m\u009d2;t\u009c\u0085',
  bidi: '\u202eexe.txt\u2066a\u2067b\u2068c\u2069\u202a\u202b\u202c\u202d\u200e\u200f\u061c',
  zeroWidth: 'zero\u200bwidth\u200c\u200d\u2060\ufeff',
  nul: 'nul\u0000byte',
  surrogate: 'lone\ud800surrogate',
  lineSep: 'line\u2028sep\u2029para',
  script: '<script>window.__pwned=1</script>',
  img: '<img src=x onerror="window.__pwned=1">',
  jsLink: '[click](javascript:window.__pwned=1)',
  dataLink: '[data](data:text/html,<script>window.__pwned=1</script>)',
  remoteImage: '![pixel](https://evil.example/pixel.png)',
  autolink: '<javascript:window.__pwned=1>',
  htmlLink: '<a href="javascript:window.__pwned=1">a</a>',
} as const;

/** Everything at once, short enough to put in every field. */
export const HOSTILE = ` ${Object.values(HOSTILE_PARTS).join(' ')} `;
/** A single word far wider than any line (ours: 100,000 characters), put in tool results. */
export const LONG_WORD = 'W'.repeat(100_000);

/** Keys whose string values a user sees, per dialect's records (everything else is structure). */
const TEXT_KEYS = new Set([
  // Claude Code
  'text',
  'thinking',
  'content',
  'name',
  'model',
  'cwd',
  'gitBranch',
  'customTitle',
  'aiTitle',
  'summary',
  'lastPrompt',
  'agentType',
  'description',
  'command',
  'file_path',
  'stdout',
  'stderr',
  'prompt',
  // Codex
  'message',
  'output',
  'query',
  'branch',
  'thread_name',
  // pi, Gemini CLI
  'modelId',
  'subject',
  'absolute_path',
  'path',
  'displayName',
  'label',
]);
/** Objects whose every string is content (tool inputs and arguments). */
const INPUT_KEYS = new Set(['input', 'arguments', 'args', 'toolUseResult', 'action']);

function hostilizeValue(value: unknown, key: string | undefined, all: boolean): unknown {
  if (typeof value === 'string') {
    if (!all && !(key && TEXT_KEYS.has(key))) return value;
    // A JSON-encoded object (Codex's `arguments`): its strings, encoded again.
    if (value.startsWith('{')) {
      try {
        return JSON.stringify(hostilizeValue(JSON.parse(value), key, true));
      } catch {
        // Not JSON: plain text.
      }
    }
    return `${value}${HOSTILE}`;
  }
  if (Array.isArray(value)) return value.map((v) => hostilizeValue(v, key, all));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'type' || k === 'role') out[k] = v;
      else out[k] = hostilizeValue(v, k, all || INPUT_KEYS.has(k));
    }
    return out;
  }
  return value;
}

/** One JSON line (or document) with hostile text in every text field; not JSON is left as it is. */
export function hostilizeJson(text: string): string {
  try {
    return JSON.stringify(hostilizeValue(JSON.parse(text), undefined, false));
  } catch {
    return text;
  }
}

const hostilizeLines = (text: string) =>
  text
    .split('\n')
    .map((l) => (l.trim() ? hostilizeJson(l) : l))
    .join('\n');

function hostilizeTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    if (statSync(src).isDirectory()) hostilizeTree(src, join(to, name));
    else if (name.endsWith('.jsonl'))
      writeFileSync(join(to, name), hostilizeLines(readFileSync(src, 'utf8')));
    else if (name.endsWith('.json')) writeFileSync(join(to, name), hostilizeJson(readFileSync(src, 'utf8')));
    else cpSync(src, join(to, name));
  }
}

const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

/** Where each hostile session is written: a folder of agents' folders, as a user's home has them. */
export interface HostileSessions {
  root: string;
  /** Claude Code: the folder fixture's main file (subagents with it), named, summarized, compacted. */
  claude: string;
  /** The same project folder. */
  claudeProject: string;
  /** Codex CLI: a rollout under `.codex/sessions/…`, its thread named in `session_index.jsonl`. */
  codex: string;
  codexHome: string;
  /** pi: a session with a compaction and a session name. */
  pi: string;
  /** Gemini CLI: the JSONL chat log. */
  gemini: string;
}

/** Writes the hostile sessions under a new temporary folder. */
export function writeHostileSessions(): HostileSessions {
  const root = mkdtempSync(join(tmpdir(), 'compactlab-hostile-'));
  // Claude Code: the project folder's name is hostile too (a path the list and stats print).
  const claudeProject = join(root, '.claude/projects', `-home-mira-${HOSTILE_PARTS.title}x`);
  hostilizeTree(join(FIXTURES, 'folder'), claudeProject);
  const main = readdirSync(claudeProject).find((n) => n.endsWith('.jsonl')) as string;
  const claude = join(claudeProject, main);
  const first = JSON.parse(readFileSync(claude, 'utf8').split('\n')[0] as string);
  const named = [
    { type: 'custom-title', customTitle: `Custom${HOSTILE}`, sessionId: first.sessionId },
    { type: 'ai-title', aiTitle: `Generated${HOSTILE}`, sessionId: first.sessionId },
    { type: 'summary', summary: `Summary${HOSTILE}`, leafUuid: null },
  ];
  const body = readFileSync(claude, 'utf8').trimEnd();
  // A tool result holding a very long word, a raw NUL and a not-JSON line with controls in it.
  const lines = body.split('\n');
  const withLong = lines.map((l) =>
    l.includes('"tool_result"') && !l.includes(LONG_WORD.slice(0, 100))
      ? l.replace('"tool_result","content":"', `"tool_result","content":"${LONG_WORD} `)
      : l,
  );
  writeFileSync(
    claude,
    `${[...withLong, ...named.map((r) => JSON.stringify(r)), `not json ${HOSTILE_PARTS.title}\u0000${HOSTILE_PARTS.osc52}`].join('\n')}\n`,
  );

  const codexHome = join(root, '.codex');
  const codexDir = join(codexHome, 'sessions/2026/05/01');
  mkdirSync(codexDir, { recursive: true });
  const codex = join(codexDir, 'rollout-2026-05-01T09-00-00-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.jsonl');
  const rollout = hostilizeLines(CODEX_ROLLOUT).replace(
    '"id":"sess-1"',
    '"id":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"',
  );
  const renamed = JSON.stringify({
    timestamp: '2026-05-01T09:00:14.000Z',
    type: 'event_msg',
    payload: { type: 'thread_name_updated', thread_name: `Rollout name${HOSTILE}` },
  });
  writeFileSync(codex, `${rollout}\n${renamed}\n`);
  writeFileSync(
    join(codexHome, 'session_index.jsonl'),
    `${JSON.stringify({ id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', thread_name: `Thread${HOSTILE}`, updated_at: '2026-05-01T09:00:20Z' })}\n`,
  );

  const piDir = join(root, '.pi/agent/sessions/--home-mira-code--');
  const piName = '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl';
  mkdirSync(piDir, { recursive: true });
  const pi = join(piDir, piName);
  writeFileSync(pi, hostilizeLines(readFileSync(join(FIXTURES, 'agents', piName), 'utf8')));

  const geminiDir = join(root, '.gemini/tmp/4f1c2b9e/chats');
  const geminiName = 'session-2026-03-09T11-00-5e6f7a8b.jsonl';
  mkdirSync(geminiDir, { recursive: true });
  const gemini = join(geminiDir, geminiName);
  writeFileSync(gemini, hostilizeLines(readFileSync(join(FIXTURES, 'agents', geminiName), 'utf8')));
  return { root, claude, claudeProject, codex, codexHome, pi, gemini };
}

/**
 * What a terminal would act on, or what hides or reorders text: C0 controls but tab and newline,
 * DEL, C1, bidi embeddings, overrides, isolates and marks, zero-width characters.
 */
export const RAW_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
