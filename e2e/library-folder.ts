// Writes the e2e library folder: several Claude Code sessions (one with a subagent folder), a
// Codex rollout, a broken transcript, a file no dialect takes and the two agents' prompt
// histories, laid out as ~/.claude/projects and ~/.codex/sessions are.

import fs from 'node:fs';
import path from 'node:path';
import { generateSession } from '../sample/generate-session';

export interface LibraryFolder {
  root: string;
  /** Sessions the library should list. */
  sessions: number;
  /** Main-thread API calls of the Claude Code session with the most. */
  mostCalls: number;
  /** The Claude Code session with the fewest calls: its main file (path under `root`) and calls. */
  fewestCalls: { path: string; apiCalls: number };
}

export const CODEX_ROLLOUT = [
  { type: 'session_meta', payload: { id: 'c0dex', cwd: '/home/ada/garden', cli_version: '0.61.0' } },
  { type: 'turn_context', payload: { model: 'gpt-5-codex', cwd: '/home/ada/garden' } },
  {
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the beds' }] },
  },
  {
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: {
          input_tokens: 1200,
          cached_input_tokens: 0,
          output_tokens: 40,
          total_tokens: 1240,
        },
        last_token_usage: {
          input_tokens: 1200,
          cached_input_tokens: 0,
          output_tokens: 40,
          total_tokens: 1240,
        },
      },
    },
  },
].map((r, i) => JSON.stringify({ timestamp: new Date(Date.UTC(2026, 4, 1, 9, 0, i)).toISOString(), ...r }));

export function writeLibraryFolder(root: string): LibraryFolder {
  fs.rmSync(root, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  let mostCalls = 0;
  let fewestCalls = { path: '', apiCalls: Number.POSITIVE_INFINITY };
  const specs = [
    { seed: 11, apiCalls: 40, project: '-home-ada-alpha', specials: false },
    { seed: 12, apiCalls: 120, project: '-home-ada-alpha', specials: true },
    { seed: 13, apiCalls: 70, project: '-home-ada-beta', specials: false },
  ];
  for (const s of specs) {
    const session = generateSession({
      seed: s.seed,
      apiCalls: s.apiCalls,
      startMs: Date.UTC(2026, 3, s.seed, 10),
      features: { specials: s.specials },
    });
    for (const f of session.files) write(`projects/${s.project}/${f.name}`, f.text);
    mostCalls = Math.max(mostCalls, s.apiCalls);
    if (s.apiCalls < fewestCalls.apiCalls) {
      fewestCalls = { path: `projects/${s.project}/${session.files[0]!.name}`, apiCalls: s.apiCalls };
    }
  }
  write('sessions/2026/05/01/rollout-2026-05-01T09-00-00-c0dex.jsonl', `${CODEX_ROLLOUT.join('\n')}\n`);
  const broken = generateSession({ seed: 14, apiCalls: 10 }).files[0]!.text.split('\n');
  broken.splice(3, 0, 'this line is not JSON');
  write('projects/-home-ada-gamma/broken.jsonl', broken.join('\n').slice(0, -200));
  write('projects/notes.txt', 'not a transcript');
  // The agents' prompt histories in their folders (~/.claude/history.jsonl, ~/.codex/history.jsonl):
  // not sessions, so not listed (they were, as broken ones).
  write(
    '.claude/history.jsonl',
    `${JSON.stringify({ display: 'List the beds', pastedContents: {}, timestamp: Date.UTC(2026, 3, 11, 10), project: '/home/ada/alpha' })}\n`,
  );
  write(
    '.codex/history.jsonl',
    `${JSON.stringify({ session_id: 'c0dex', ts: 1777626000, text: 'List the beds' })}\n`,
  );
  return { root, sessions: specs.length + 2, mostCalls, fewestCalls };
}

export interface BigLibraryFolder {
  root: string;
  /** Sessions the library should list (main transcripts, Codex rollouts, the broken one). */
  sessions: number;
  /** Files written (transcripts, subagent and compaction-call files, the stray text file). */
  files: number;
}

/**
 * A folder of many sessions for the responsiveness test: `claude` Claude Code sessions over a few
 * projects (every fifth with subagent and compaction-call files), `codex` Codex rollouts by day,
 * one broken transcript and a stray text file. Small sessions, so the pool's per-row traffic (not
 * the parsing of one big file) is what the page sees.
 */
export function writeBigLibraryFolder(root: string, claude = 400, codex = 120): BigLibraryFolder {
  fs.rmSync(root, { recursive: true, force: true });
  let files = 0;
  const write = (rel: string, text: string) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    files++;
  };
  // A subagent log (Task → Explore) borrowed from a longer session, filed under every fifth session.
  const donor = generateSession({ seed: 12, apiCalls: 120, features: { specials: true } });
  const subagent = donor.files.find((f) => f.name.includes('/subagents/'))!;
  for (let i = 0; i < claude; i++) {
    const session = generateSession({
      seed: 100 + i,
      apiCalls: 12 + (i % 7) * 4,
      startMs: Date.UTC(2026, 2, 1 + (i % 28), 8 + (i % 12), i % 60),
      features: { specials: false },
    });
    const dir = `projects/-home-ada-project-${i % 9}`;
    for (const f of session.files) write(`${dir}/${f.name}`, f.text);
    if (i % 5 === 0) {
      write(
        `${dir}/${session.sessionId}/subagents/${path.basename(subagent.name)}`,
        subagent.text.replaceAll(donor.sessionId, session.sessionId),
      );
    }
  }
  for (let i = 0; i < codex; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const id = `c0dex-${String(i).padStart(4, '0')}`;
    const text = CODEX_ROLLOUT.map((l) => l.replace('"c0dex"', `"${id}"`)).join('\n');
    write(`sessions/2026/04/${day}/rollout-2026-04-${day}T09-00-00-${id}.jsonl`, `${text}\n`);
  }
  const broken = generateSession({ seed: 14, apiCalls: 10 }).files[0]!.text.split('\n');
  broken.splice(3, 0, 'this line is not JSON');
  write('projects/-home-ada-gamma/broken.jsonl', broken.join('\n').slice(0, -200));
  write('projects/notes.txt', 'not a transcript');
  return { root, sessions: claude + codex + 1, files };
}
