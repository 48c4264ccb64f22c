import { CLAUDE_CODE_DIALECT_INFO } from '../parse/dialects/claude-code/info';
import type { LiveLineReader } from './line-readers';
import { addCall, isObject, type Json, markCompaction, num, setModel } from './figure-updates';
import type { LiveFigures } from './live-figures';

// Claude Code's lines for live figures (docs/sources.md#fmt-compaction usage, §6 compact boundaries): the version
// on every record, a call per distinct message id (streamed chunks repeat it), the boundaries.

function addClaudeCodeRecord(f: LiveFigures, r: Json, line: number): void {
  if (typeof r.version === 'string') f.version = r.version;
  if (r.type === 'system' && r.subtype === 'compact_boundary') {
    const meta = isObject(r.compactMetadata) ? r.compactMetadata : {};
    markCompaction(
      f,
      line,
      typeof meta.trigger === 'string' ? meta.trigger : 'unknown',
      typeof meta.preTokens === 'number' ? meta.preTokens : undefined,
    );
    return;
  }
  if (r.type === 'system' && r.subtype === 'microcompact_boundary') {
    f.microcompactions++;
    f.afterCompaction = true;
    return;
  }
  if (r.type !== 'assistant' || r.isSidechain === true || !isObject(r.message)) return;
  const m = r.message;
  if (m.model === '<synthetic>' || !isObject(m.usage)) return;
  if (typeof m.model === 'string') setModel(f, m.model);
  const u = m.usage;
  const context = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
  const id = typeof m.id === 'string' ? m.id : undefined;
  // Streamed chunks of one response repeat its message id: one call, its latest usage wins.
  if (id !== undefined && id === f.lastMessageId) {
    f.contextTokens = context;
    f.outputTokens = num(u.output_tokens);
    f.peakContextTokens = Math.max(f.peakContextTokens, context);
    return;
  }
  f.lastMessageId = id;
  addCall(f, context, num(u.output_tokens), f.afterCompaction === true);
  f.afterCompaction = false;
}

export const CLAUDE_CODE_LIVE_LINES: LiveLineReader = {
  dialectId: CLAUDE_CODE_DIALECT_INFO.id,
  // Any other record: Claude Code's lines have no single marker (the last reader, it takes the rest).
  takes: () => true,
  catchAll: true,
  add: addClaudeCodeRecord,
};
