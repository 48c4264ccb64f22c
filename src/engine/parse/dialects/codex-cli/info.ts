import { type DialectInfo, matchAgentFolderFile, NO_RESTORATION, type NotSessionFile } from '../descriptor';
import { isObject } from '../record';
import { readCodexThreadNames } from './session-index';

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

/** Text blocks of a user message that are injected context, not typed by the person. */
export const INJECTED_USER_PREFIXES = [
  '<environment_context>',
  '# AGENTS.md instructions',
  '<user_instructions>',
  '<turn_aborted>',
  // `record_model_warning`: a warning to the model, written as a user message (no user_message
  // event); the texts of openai/codex's contextual-fragment list ([index] copy). Seen in a real
  // rollout (Ogekuri/G, CLI 0.70): "Warning: apply_patch was requested via shell_command. …".
  'Warning: apply_patch was requested via ',
  'Warning: The maximum number of unified exec processes you can keep open is',
  'Warning: Your account was flagged for potentially high-risk cyber activity',
];

/**
 * Context that is no request of the person's in a summary request: a developer or system message
 * (message-records.ts keeps its role as a tag), an attached image's markers.
 */
const CONTEXT_TEXT = /^(?:<(?:developer|system)>\n|<\/?image\b)/;

/** Replacement-history items that hold a remote compaction's encrypted summary. */
export const ENCRYPTED_SUMMARY_TYPES = new Set(['compaction', 'compaction_summary', 'context_compaction']);

/**
 * `~/.codex/history.jsonl`: every prompt typed, one `{session_id, ts, text}` a line (named
 * `conversation_id` in some releases; openai/codex codex-rs/core/src/message_history.rs,
 * `HistoryEntry`). Opening `~/.codex` listed it as a broken session.
 */
const CODEX_PROMPT_HISTORY: NotSessionFile = {
  what: "Codex CLI's prompt history (~/.codex/history.jsonl: the prompts typed, without the model's answers); the sessions are the rollouts under ~/.codex/sessions/",
  // In the `.codex` folder, or the folder opened.
  matchPath: matchAgentFolderFile('.codex', 'history.jsonl'),
  matchRecord: (value) =>
    isObject(value) &&
    (typeof value.conversation_id === 'string' || typeof value.session_id === 'string') &&
    typeof value.ts === 'number' &&
    typeof value.text === 'string',
};

/**
 * Codex's thread names: `~/.codex/session_index.jsonl`, one `{id, thread_name, updated_at}` line
 * per rename, the newest per thread winning (openai/codex@3186b173
 * codex-rs/core/src/rollout/session_index.rs, `SessionIndexEntry`). A rollout states its own
 * name (`thread_name_updated`, read by the normalizer).
 */
const CODEX_THREAD_NAMES: NotSessionFile = {
  what: "Codex CLI's thread names (~/.codex/session_index.jsonl: a name per thread, no conversation); the sessions are the rollouts under ~/.codex/sessions/",
  matchPath: matchAgentFolderFile('.codex', 'session_index.jsonl'),
  matchRecord: (value) =>
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.thread_name === 'string' &&
    typeof value.updated_at === 'string',
};

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
  listNeedles: [
    '"token_count"',
    '"turn_context"',
    '"session_meta"',
    '"compacted"',
    '"instructions"',
    '"thread_name_updated"',
  ],
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
    notSessions: [CODEX_PROMPT_HISTORY, CODEX_THREAD_NAMES],
    // Not a session, but the names its sessions are listed under (session-index.ts).
    sessionNames: {
      fileName: 'session_index.jsonl',
      read: readCodexThreadNames,
    },
  },
  transcript: {
    // Context Codex injects is no request of the person's (the built-in summary's "requests"); an
    // interruption notice says the person stopped the turn.
    readUserText: (text) => {
      const start = text.trimStart();
      if (start.startsWith('<turn_aborted>')) return { kind: 'interrupt', text: start };
      return INJECTED_USER_PREFIXES.some((p) => start.startsWith(p)) || CONTEXT_TEXT.test(start)
        ? null
        : undefined;
    },
    // A `compacted` record is its own summary entry (normalizer.ts). A local compaction writes
    // the summary, prefixed with Codex's hand-off sentence, as `message` (openai/codex@0100b103
    // codex-rs/core/src/compact.rs: `CompactedItem { message: summary_text, … }`); a remote one
    // writes an empty `message` and the history the compaction endpoint returned
    // (openai/codex@001cb8e2 codex-rs/core/src/compact_remote.rs), where the summary is a
    // `compaction` item whose `encrypted_content` only OpenAI can read (codex-rs/protocol/src/models.rs:
    // `Compaction { encrypted_content }`, read also as `compaction_summary`; later releases add
    // `ContextCompaction`, `context_compaction`).
    readSummaryText: (record) => {
      const message = isObject(record) && isObject(record.payload) ? record.payload.message : undefined;
      return typeof message === 'string' && message !== '' ? message : undefined;
    },
    readSummaryNote: (record) => {
      const history =
        isObject(record) && isObject(record.payload) ? record.payload.replacement_history : undefined;
      if (!Array.isArray(history)) return undefined;
      let encryptedChars = 0;
      let compactionItems = 0;
      const kept: Record<string, number> = {};
      for (const item of history) {
        if (!isObject(item)) continue;
        if (typeof item.type === 'string' && ENCRYPTED_SUMMARY_TYPES.has(item.type)) {
          compactionItems++;
          if (typeof item.encrypted_content === 'string') encryptedChars += item.encrypted_content.length;
        } else if (item.type === 'message' && typeof item.role === 'string')
          kept[item.role] = (kept[item.role] ?? 0) + 1;
      }
      const keptText = Object.entries(kept)
        .map(([role, n]) => `${n} ${role}`)
        .join(', ');
      const rest = keptText ? ` Its replacement history keeps ${keptText} messages beside it.` : '';
      return compactionItems > 0
        ? `Encrypted: a remote compaction (OpenAI's compaction endpoint wrote the summary as ${compactionItems === 1 ? 'a `compaction` item' : `${compactionItems} \`compaction\` items`} of ${encryptedChars.toLocaleString('en-US')} characters of ciphertext); its text is not in the log.${rest}`
        : `No summary in this record: its \`message\` is empty.${rest}`;
    },
  },
};
