import type { LoggedContextEdits, TokenCount } from '../../../types';
import { isObject, type Json, num } from '../record';

// Server-side context editing in raw requests: a request's `context_management.edits` (the
// session's knobs) and a response's `applied_edits` (a clearing event).

/** `{type: "input_tokens" | "tool_uses", value}` → its value when of `type`. */
function editValue(v: unknown, type: string): number | undefined {
  return isObject(v) &&
    v.type === type &&
    typeof v.value === 'number' &&
    Number.isFinite(v.value) &&
    v.value >= 0
    ? v.value
    : undefined;
}

/**
 * A request's `context_management.edits` (platform.claude.com "Context editing": clear_tool_uses
 * `trigger`, `keep`, `clear_at_least`, `exclude_tools`; clear_thinking `keep`; "Compaction":
 * `trigger`, `instructions`, `pause_after_compaction`). Unknown edits and fields are ignored.
 */
export function readEdits(edits: unknown[]): LoggedContextEdits {
  const out: LoggedContextEdits = {};
  for (const edit of edits) {
    if (!isObject(edit) || typeof edit.type !== 'string') continue;
    if (edit.type.startsWith('clear_tool_uses')) {
      const tools = Array.isArray(edit.exclude_tools)
        ? edit.exclude_tools.filter((t): t is string => typeof t === 'string')
        : undefined;
      out.clearToolUses = {
        triggerTokens: editValue(edit.trigger, 'input_tokens'),
        keepToolUses: editValue(edit.keep, 'tool_uses'),
        clearAtLeastTokens: editValue(edit.clear_at_least, 'input_tokens'),
        excludeTools: tools,
      };
    } else if (edit.type.startsWith('clear_thinking')) {
      out.clearThinking =
        edit.keep === 'all' ? { keepAll: true } : { keepTurns: editValue(edit.keep, 'thinking_turns') };
    } else if (edit.type.startsWith('compact')) {
      out.compaction = {
        triggerTokens: editValue(edit.trigger, 'input_tokens'),
        instructions: typeof edit.instructions === 'string' ? edit.instructions : undefined,
        pauseAfterCompaction:
          typeof edit.pause_after_compaction === 'boolean' ? edit.pause_after_compaction : undefined,
      };
    }
  }
  return out;
}

/**
 * The tool results clear_tool_uses may clear in a request, oldest first: every `tool_result` whose
 * tool is not in the edit's `exclude_tools` (platform.claude.com "Context editing": the oldest
 * results are cleared first, excluded tools never).
 */
export function getClearableResults(messages: unknown[], exclude: readonly string[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (!isObject(b)) continue;
      if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
        names.set(b.id, b.name);
      else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
        const name = names.get(b.tool_use_id);
        if (name === undefined || !exclude.includes(name)) out.push(b.tool_use_id);
      }
    }
  }
  return out;
}

/** What a response's `applied_edits` newly cleared (undefined: nothing new, no event). */
interface AppliedEdits {
  /** The applied edits' types. */
  names: string[];
  uses: number;
  /** `cleared_input_tokens` summed over the edits: all cleared in the request. */
  totalTokens: TokenCount;
  /** What this event saves: the growth of clear_tool_uses' `cleared_input_tokens`, the rest whole. */
  savedTokens: TokenCount;
  /** The tool uses newly cleared. */
  ids: string[];
}

/**
 * Server-side context editing: the API cleared these before the model read the request (docs
 * "Context editing": applied_edits {type, cleared_tool_uses, cleared_input_tokens}). Which
 * results: clear_tool_uses clears the oldest ones (`clearable`, when the request is known), and
 * each response reports all it cleared in that request: the ones not cleared before (`state`,
 * the conversation's, updated here) are this event's, and the saving is the growth of
 * cleared_input_tokens.
 */
export function readAppliedEdits(
  applied: unknown[],
  state: { cleared?: Set<string>; clearedTokens?: TokenCount },
  clearable?: () => string[],
): AppliedEdits | undefined {
  if (applied.length === 0) return undefined;
  const total = applied.reduce<number>((s, x) => s + (isObject(x) ? num(x.cleared_input_tokens) : 0), 0);
  const uses = applied.reduce<number>((s, x) => s + (isObject(x) ? num(x.cleared_tool_uses) : 0), 0);
  const names = applied.map((x) => (isObject(x) && typeof x.type === 'string' ? x.type : '?'));
  const toolEdit = applied.find(
    (x): x is Json => isObject(x) && typeof x.type === 'string' && x.type.startsWith('clear_tool_uses'),
  );
  let ids: string[] = [];
  let saved = total;
  if (toolEdit && clearable) {
    state.cleared ??= new Set();
    const cleared = state.cleared;
    ids = clearable()
      .slice(0, num(toolEdit.cleared_tool_uses))
      .filter((id) => !cleared.has(id));
    for (const id of ids) cleared.add(id);
    const whole = num(toolEdit.cleared_input_tokens);
    saved = total - whole + Math.max(0, whole - (state.clearedTokens ?? 0));
    state.clearedTokens = whole;
    // The same clearing applied again to a longer request: nothing newly cleared.
    if (ids.length === 0 && applied.length === 1) saved = -1;
  }
  return saved < 0 ? undefined : { names, uses, totalTokens: total, savedTokens: saved, ids };
}
