import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { readClaudeCodeTruth } from './claude-code';
import { readClaudeSdkStreamTruth } from './claude-sdk-stream';
import { readClineTruth } from './cline';
import { readClineHistoryTruth } from './cline-history';
import { readCodexTruth } from './codex';
import { readGeminiCliTruth } from './gemini-cli';
import { hasPythonSqlite, readOpenCodeDatabaseTruth } from './opencode';
import { readPiTruth } from './pi';
import type { Truth } from './types';

// Which truth reader reads a file: by the name each agent gives its files, then by a look at the
// first record. Independent of the engine's own detection on purpose. OpenCode's sessions span many
// files or a SQLite database: a database's session, named as the engine names it, is read here
// (opencode.ts, through python3's sqlite3); tests/parse/opencode-db.test.ts runs the rest.
// No reader: raw Messages API traffic (claude-trace) has no real log on disk yet.

export type TruthFormat =
  | 'claude-code'
  | 'claude-sdk-stream'
  | 'codex'
  | 'gemini-cli'
  | 'pi'
  | 'cline'
  | 'cline-history';

const READERS: Record<TruthFormat, (text: string) => Truth> = {
  'claude-code': readClaudeCodeTruth,
  'claude-sdk-stream': readClaudeSdkStreamTruth,
  codex: readCodexTruth,
  'gemini-cli': readGeminiCliTruth,
  pi: readPiTruth,
  cline: readClineTruth,
  'cline-history': readClineHistoryTruth,
};

/** The format of a file by its name and first line, or undefined when no truth reader reads it. */
export function getTruthFormat(path: string, text: string): TruthFormat | undefined {
  const name = basename(path);
  if (/ui_messages\.json$/.test(name)) return 'cline';
  if (/api_conversation_history\.json$/.test(name)) return 'cline-history';
  if (/rollout-.*\.jsonl$/.test(name)) return 'codex';
  if (/session-.*\.jsonl?$/.test(name) && /"(type|messages)"/.test(text.slice(0, 4096))) {
    if (/"projectHash"|"type"\s*:\s*"(gemini|user)"/.test(text.slice(0, 100_000))) return 'gemini-cli';
  }
  if (!name.endsWith('.jsonl')) return undefined;
  if (/^\{"type":"session","version"/.test(text)) return 'pi'; // pi's header line
  // Claude Code lines carry `sessionId` and a user/assistant/system/summary… type; its stream-json
  // (the Agent SDK's messages) carries `session_id` instead.
  if (/^\{"type":"(system|user|assistant)"/.test(text) && /"session_id"\s*:/.test(text.slice(0, 4096))) {
    if (!/"sessionId"\s*:/.test(text.slice(0, 200_000))) return 'claude-sdk-stream';
  }
  if (/"sessionId"\s*:/.test(text.slice(0, 200_000)) && /"type"\s*:\s*"(user|assistant)"/.test(text))
    return 'claude-code';
  return undefined;
}

/** `<…/opencode.db>/session/<project>/<ses_…>.json`: how the engine names a database's session. */
const OPENCODE_DB_SESSION = /^(.*\/opencode[^/]*\.db)\/session\/[^/]+\/(ses_[0-9A-Za-z]+)\.json$/;
const databaseTruths = new Map<string, Map<string, Truth>>();

/** The truth of one file, or undefined when no truth reader reads it. */
export function readTruth(path: string): { format: TruthFormat | 'opencode'; truth: Truth } | undefined {
  // A session of an OpenCode database, read by SQLite itself (python3), once per database.
  const db = OPENCODE_DB_SESSION.exec(path);
  if (db && existsSync(db[1]!) && statSync(db[1]!).isFile()) {
    if (!hasPythonSqlite()) return undefined;
    let truths = databaseTruths.get(db[1]!);
    if (!truths) {
      truths = readOpenCodeDatabaseTruth(db[1]!);
      databaseTruths.set(db[1]!, truths);
    }
    const truth = truths.get(db[2]!);
    return truth && { format: 'opencode', truth };
  }
  const text = readFileSync(path, 'utf8');
  const format = getTruthFormat(path, text);
  return format && { format, truth: READERS[format](text) };
}
