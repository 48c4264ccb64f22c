import { CODEX_CLI_DIALECT_INFO } from '../parse/dialects/codex-cli/info';
import type { LiveLineReader } from './line-readers';
import { addCall, isObject, type Json, markCompaction, num, setModel } from './figure-updates';
import type { LiveFigures } from './live-figures';

// Codex rollouts' lines for live figures (`event_msg` `token_count`, `compacted`; docs/sources.md#fmt,
// Codex usage): the window the rollout states, a call per changed total.

const CODEX_RECORD_TYPES = new Set(['session_meta', 'event_msg', 'turn_context', 'compacted']);

function addCodexRecord(f: LiveFigures, r: Json, line: number): void {
  const p = isObject(r.payload) ? r.payload : {};
  if (r.type === 'session_meta' && typeof p.cli_version === 'string') f.version = p.cli_version;
  if (r.type === 'turn_context' && typeof p.model === 'string') setModel(f, p.model);
  if (r.type === 'compacted') {
    markCompaction(f, line, 'auto', f.contextTokens);
    return;
  }
  if (r.type !== 'event_msg') return;
  if (typeof p.model_context_window === 'number') f.contextWindow = p.model_context_window;
  if (p.type !== 'token_count' || !isObject(p.info)) return;
  const info = p.info;
  if (typeof info.model_context_window === 'number') f.contextWindow = info.model_context_window;
  const last = isObject(info.last_token_usage) ? info.last_token_usage : undefined;
  const total = isObject(info.total_token_usage) ? num(info.total_token_usage.total_tokens) : undefined;
  // An unchanged total repeats the previous call (codex-cli.ts, `token_count`).
  const key = total === undefined ? undefined : `total:${total}`;
  if (!last || (key !== undefined && key === f.lastMessageId)) return;
  f.lastMessageId = key;
  // Codex's input_tokens already include the cached ones (docs/sources.md#fmt, Codex usage).
  addCall(f, num(last.input_tokens), num(last.output_tokens), f.afterCompaction === true);
  f.afterCompaction = false;
}

export const CODEX_CLI_LIVE_LINES: LiveLineReader = {
  dialectId: CODEX_CLI_DIALECT_INFO.id,
  takes: (r) => typeof r.type === 'string' && CODEX_RECORD_TYPES.has(r.type),
  add: addCodexRecord,
};
