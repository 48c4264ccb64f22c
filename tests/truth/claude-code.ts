import { num, parseJsonLines, type Raw, type Truth, type TruthCall, type TruthCompaction } from './types';

// Claude Code's JSONL transcript (~/.claude/projects/<cwd>/<session>.jsonl), read from its raw
// lines alone. Sections cited are ../../../shared/research/FORMAT.md's.
//
// * API calls (§6): one response is written as one line per content block, all lines sharing
//   `message.id` (and `requestId`). A call is one distinct `message.id` (else `requestId`, else the
//   line's `uuid`) among `assistant` lines, in file order. `model: "<synthetic>"` lines are made
//   locally (errors, interrupts) and are not calls.
// * Thread: the main thread's calls only. Sub-agent turns (`isSidechain: true`, §7) have their own
//   context; but a sub-agent's own file (every user/assistant line a sidechain) is its own thread.
// * Context per call (§6): input_tokens + cache_creation_input_tokens + cache_read_input_tokens of
//   the call's first line (these fields are equal on every line of a call; only output_tokens
//   grows while streaming).
// * Compactions (§4.1): a `system` line with subtype `compact_boundary`, written after the whole
//   pre-compact history: it follows the last call before it. Its `compactMetadata` gives the
//   trigger (auto/manual) and preTokens. Microcompaction (§4.4): `microcompact_boundary` with
//   `microcompactMetadata`, also after the calls it follows. `summary` lines are titles, not
//   compactions (§3).

const isThreadLine = (r: Raw) => r.type === 'user' || r.type === 'assistant';

/** The main thread's calls and compactions of one Claude Code JSONL file. */
export function readClaudeCodeTruth(text: string): Truth {
  const records = parseJsonLines(text);
  const thread = records.filter(isThreadLine);
  // A sub-agent file opened alone: every line is a sidechain, and they are its own thread.
  const ownThread = thread.length > 0 && thread.every((r) => r.isSidechain === true);
  const onThread = (r: Raw) => ownThread || r.isSidechain !== true;

  const calls: TruthCall[] = [];
  const seen = new Set<string>();
  const compactions: TruthCompaction[] = [];
  for (const r of records) {
    if (r.type === 'assistant' && onThread(r) && r.message?.model !== '<synthetic>') {
      const id = r.message?.id ?? r.requestId ?? r.uuid;
      if (typeof id !== 'string' || seen.has(id)) continue;
      seen.add(id);
      const u = r.message?.usage ?? {};
      calls.push({
        id,
        contextTokens:
          num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens),
      });
    } else if (r.type === 'system' && onThread(r)) {
      const kind =
        r.subtype === 'compact_boundary'
          ? 'compact'
          : r.subtype === 'microcompact_boundary'
            ? 'microcompact'
            : undefined;
      if (kind === undefined) continue;
      const meta = kind === 'compact' ? r.compactMetadata : r.microcompactMetadata;
      compactions.push({
        kind,
        afterCall: calls.length - 1,
        trigger: typeof meta?.trigger === 'string' ? meta.trigger : undefined,
        preTokens: typeof meta?.preTokens === 'number' ? meta.preTokens : undefined,
      });
    }
  }
  return { calls, compactions };
}
