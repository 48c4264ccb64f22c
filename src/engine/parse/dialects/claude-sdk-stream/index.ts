import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';

// The Claude Agent SDK's `--output-format stream-json` (docs/sources.md#fmt-sdk-stream): recognised, not parsed.

const STREAM_TYPES = new Set(['system', 'assistant', 'user', 'result']);

export const CLAUDE_SDK_STREAM_DIALECT: DialectDescriptor = {
  id: 'claude-sdk-stream',
  label: 'Claude Agent SDK stream-json',
  restoration: NO_RESTORATION,
  files: {
    // snake_case session_id and no camelCase sessionId: the stream, not a session file (docs/sources.md#fmt-sdk-stream).
    matchRecord: (value) =>
      isObject(value) &&
      typeof value.type === 'string' &&
      STREAM_TYPES.has(value.type) &&
      'session_id' in value &&
      !('sessionId' in value),
  },
};
