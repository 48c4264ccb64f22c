import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';
import { createCodexCliNormalizer, RECORD_TYPES } from './normalizer';

// Codex CLI as a dialect: its rollout records are read by normalizer.ts.

/** Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`, `{type, payload}` lines, docs/sources.md#fmt-timeline). */
export const CODEX_CLI_DIALECT: DialectDescriptor = {
  id: 'codex-cli',
  label: 'Codex CLI rollout',
  agent: 'Codex CLI',
  defaultStrategyId: 'codex',
  createNormalizer: createCodexCliNormalizer,
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
