import { type DialectInfo, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';

// Codex CLI as a dialect, what the page knows of it: its rollout records are read by
// normalizer.ts (index.ts adds it).

/** The `type`s of a rollout line since openai/codex PR #3380 (2025-09-09, docs/sources.md#fmt-codex). */
export const RECORD_TYPES = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
]);

/** Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`, `{type, payload}` lines, docs/sources.md#fmt-timeline). */
export const CODEX_CLI_DIALECT_INFO: DialectInfo = {
  id: 'codex-cli',
  label: 'Codex CLI rollout',
  agent: 'Codex CLI',
  defaultStrategyId: 'codex',
  parsed: true,
  usageFollowsResponse: true,
  // Codex's shell tools: `shell` / `shell_command` / `exec_command` function calls, `local_shell_call` items (docs/sources.md#fmt-timeline).
  shellTools: ['shell', 'shell_command', 'exec_command', 'local_shell_call'],
  // Codex re-sends recent user messages, not files, after a compaction (strategies/codex.ts).
  restoration: NO_RESTORATION,
  // Calls are `token_count` events, models come from `turn_context`, compactions are `compacted`
  // lines (docs/sources.md#fmt-timeline, #fmt-codex).
  listNeedles: ['"token_count"', '"turn_context"', '"session_meta"', '"compacted"', '"instructions"'],
  files: {
    location: '~/.codex/sessions/<yyyy>/<mm>/<dd>/rollout-*.jsonl',
    matchName: (baseName) => /^rollout-.*\.jsonl$/i.test(baseName),
    // The early format's first line is `{id, timestamp, instructions, git?}` (normalizer.ts, earlyRecord).
    matchRecord: (value) =>
      isObject(value) &&
      ((typeof value.type === 'string' && RECORD_TYPES.has(value.type) && 'payload' in value) ||
        (typeof value.id === 'string' &&
          typeof value.timestamp === 'string' &&
          typeof value.instructions === 'string' &&
          !('type' in value))),
    folderFile: (path) => /\.jsonl$/i.test(path),
  },
};
