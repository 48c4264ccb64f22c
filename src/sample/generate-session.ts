// A deterministic, realistic Claude Code 2.1.x session: several hundred API calls of a developer
// building a small CLI, with auto and manual compaction, a microcompaction, a subagent and the
// compaction-call files, in the on-disk JSONL format of docs/sources.md#fmt. Pure TypeScript (no
// DOM, no Node), streamed line by line so a 100 MB benchmark file never sits in memory.
//
// Auto-compaction and microcompaction happen exactly where the replay model puts them for the
// version written on the records (compaction-model.ts), so a replay at the log's own knobs
// reproduces them. The default version is 2.1.19, the only one whose knobs have microcompact
// (session-sim.ts, DEFAULT_CLAUDE_CODE_VERSION). The manual `/compact` is the story's choice.
//
// Token accounting is simulated but coherent: each request's context (input + cache creation +
// cache read) is the previous request's context plus its output plus what was added since
// (prompt, tool results), with text counted at CHARS_PER_TOKEN (accounting.ts).

import { SessionSim } from './session-sim';

/** Bump when the output for a given seed changes (the benchmark reuses files of the same version). */
export const GENERATOR_VERSION = 2;
export { DEFAULT_CLAUDE_CODE_VERSION } from './session-sim';

export interface SessionFeatures {
  /** Pasted image, subagent, WebFetch, rejected edit, API retries, queued prompt, break, persisted output, unknown record. */
  specials: boolean;
  microcompact: boolean;
  manualCompact: boolean;
}

export interface GenerateSessionOptions {
  seed: number;
  /** Main-thread API calls to produce (default 400). Ignored when `targetBytes` is set. */
  apiCalls?: number;
  /** Keep going until the main file has at least this many bytes. */
  targetBytes?: number;
  /** Claude Code version written on every record (default 2.1.19); it sets the compaction rules. */
  version?: string;
  startMs?: number;
  /** Context of the first request: above the system prompt for a resumed, already long session. */
  initialContextTokens?: number;
  /** Index of the first story prompt. */
  storyStart?: number;
  /** File-size multiplier (default 1, or 1.5 with `targetBytes`). */
  outputScale?: number;
  features?: Partial<SessionFeatures>;
}

/** One line of one file; `file` is a path relative to the projects folder. */
export interface GeneratedLine {
  file: string;
  line: string;
}

export interface GeneratedFile {
  name: string;
  text: string;
}

export interface GeneratedSession {
  sessionId: string;
  /** `files[0]` is the main transcript; subagent and compaction-call files follow. */
  files: GeneratedFile[];
}

/** Streams the session: main-file lines and subagent-file lines, each tagged with its file. */
export function* generateSessionLines(options: GenerateSessionOptions): Generator<GeneratedLine> {
  yield* new SessionSim(options).run();
}

/** The whole session in memory (tests, the bundled sample). */
export function generateSession(options: GenerateSessionOptions): GeneratedSession {
  const sim = new SessionSim(options);
  const byFile = new Map<string, string[]>([[sim.mainName, []]]);
  for (const { file, line } of sim.run()) {
    let lines = byFile.get(file);
    if (!lines) {
      lines = [];
      byFile.set(file, lines);
    }
    lines.push(line);
  }
  return {
    sessionId: sim.sessionId,
    files: [...byFile].map(([name, lines]) => ({ name, text: `${lines.join('\n')}\n` })),
  };
}
