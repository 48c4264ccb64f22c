import type { DialectInfo } from '../descriptor';
import { isObject } from '../record';
import {
  CLAUDE_CODE_RESTORATION,
  CLAUDE_CODE_SHELL_TOOLS,
  CLAUDE_CODE_TEXTS,
} from '../shared/claude-conventions';

// The stream Claude Code prints with `--output-format stream-json` and the Agent SDK yields
// (docs/sources.md#fmt-sdk-stream): Claude Code's own messages, read by its message normalizer and
// texts (../shared/), replayed by its strategy at the version `system/init` names. What the page
// knows of it; index.ts adds the normalizer.

/** System subtypes the stream writes that the engine reads or shows (docs/sources.md#fmt-sdk-stream). */
const STREAM_SYSTEM_SUBTYPES = new Set([
  'init',
  'status',
  'compact_boundary',
  'hook_response',
  'permission_request',
  'permission_response',
]);

/** Record types of the stream (docs/sources.md#fmt-sdk-stream); others are kept and counted as unknown. */
const STREAM_RECORD_TYPES = new Set([
  'system',
  'user',
  'assistant',
  'result',
  'tool_use_summary',
  'stream_event',
  'tool_progress',
]);

export const CLAUDE_SDK_STREAM_DIALECT_INFO: DialectInfo = {
  id: 'claude-sdk-stream',
  label: 'Claude Agent SDK stream-json',
  agent: 'Claude Code',
  defaultStrategyId: 'claude-code',
  parsed: true,
  shellTools: CLAUDE_CODE_SHELL_TOOLS,
  restoration: CLAUDE_CODE_RESTORATION,
  // Calls are assistant records, compactions system boundaries; `system/init` names the version and
  // `result` ends each run (its stated totals, the run's last time). Quoted whole, so only
  // structure matches.
  listNeedles: ['"assistant"', '"compact_boundary"', '"init"', '"result"'],
  // The message object is the API's, as in the session JSONL: its content is not needed for a list.
  listCut: { from: '"content":[', to: '],"stop_reason"' },
  files: {
    location: 'the output of claude -p --output-format stream-json --verbose, saved as .jsonl',
    // snake_case session_id and no camelCase sessionId: the stream, not a session file (docs/sources.md#fmt-sdk-stream).
    matchRecord: (value) =>
      isObject(value) &&
      typeof value.type === 'string' &&
      STREAM_RECORD_TYPES.has(value.type) &&
      'session_id' in value &&
      !('sessionId' in value),
  },
  transcript: { ...CLAUDE_CODE_TEXTS, knownSystemSubtypes: STREAM_SYSTEM_SUBTYPES },
};
