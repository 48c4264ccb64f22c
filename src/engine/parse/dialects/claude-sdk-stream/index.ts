import type { DialectDescriptor } from '../descriptor';
import { isObject } from '../record';
import {
  CLAUDE_CODE_RESTORATION,
  CLAUDE_CODE_SHELL_TOOLS,
  CLAUDE_CODE_TEXTS,
} from '../shared/claude-conventions';
import { createSdkStreamNormalizer, STREAM_RECORD_TYPES, STREAM_SYSTEM_SUBTYPES } from './normalizer';

// The stream Claude Code prints with `--output-format stream-json` and the Agent SDK yields
// (docs/sources.md#fmt-sdk-stream): Claude Code's own messages, read by its message normalizer and
// texts (../shared/), replayed by its strategy at the version `system/init` names.

export const CLAUDE_SDK_STREAM_DIALECT: DialectDescriptor = {
  id: 'claude-sdk-stream',
  label: 'Claude Agent SDK stream-json',
  agent: 'Claude Code',
  defaultStrategyId: 'claude-code',
  createNormalizer: createSdkStreamNormalizer,
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
