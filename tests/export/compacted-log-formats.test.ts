import { describe, expect, it } from 'vitest';
import { getCompactedLogRefusal } from '../../src/engine/export/compacted-log-formats';

// A real Agent SDK stream (bdevz og-system audit.jsonl) was refused with "for Claude Code logs only;
// this is a Claude Code log": its agent is Claude Code, its format is not the one written back.
describe('getCompactedLogRefusal', () => {
  it('names the formats, and the agent where the format does not', () => {
    expect(getCompactedLogRefusal('claude-code')).toBeUndefined();
    expect(getCompactedLogRefusal('claude-sdk-stream')).toBe(
      "Written in the log's own format, for a Claude Code session (JSONL) only; this is a Claude Agent SDK stream-json (Claude Code)",
    );
    expect(getCompactedLogRefusal('codex-cli')).toBe(
      "Written in the log's own format, for a Claude Code session (JSONL) only; this is a Codex CLI rollout",
    );
  });
});
