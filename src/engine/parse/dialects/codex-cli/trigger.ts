// Whether a Codex compaction was a manual `/compact` or an automatic one: Codex writes the same
// records for both, so its place in the turn tells (docs/sources.md#fmt-codex).

import type { TokenCount } from '../../../types';

/**
 * Below this share of the recorded window, a compaction at a turn boundary is read as a manual
 * `/compact`: ours (Codex's automatic limit is 90% of the raw window, openai/codex@0d4367d0e6a976082b36d9eea8f8a579fca368cb:codex-rs/protocol/src/openai_models.rs
 * `auto_compact_token_limit`, ≈ 95% of the `model_context_window` it records, which is 95% of the
 * raw one; a pre-turn automatic compaction therefore follows a call near that limit, and the
 * margin leaves room for the estimate of the items added since the last call).
 */
const MANUAL_BELOW_WINDOW_SHARE = 0.75;

/** Where the rollout stands in its turn, to tell a manual `/compact` from an automatic one. */
export interface TurnState {
  /** The model answered (reasoning, a message, a tool call) since the turn began. */
  modelOutput: boolean;
  /** A turn is under way (a prompt or `task_started` seen, no `task_complete` since). */
  open: boolean;
  /** The model's last item was a message with no tool call or tool output after it. */
  answered?: boolean;
  /** The rollout records `task_started` / `task_complete` (some versions persist neither). */
  taskEvents?: boolean;
  /** The latest prompt the person typed. */
  prompt?: string;
  window?: TokenCount;
}

/**
 * A `compacted` record's trigger, inferred from its position, and why. Codex writes the same
 * records for both (turn_context, `compacted`, `context_compacted`; the only manual-only event,
 * TaskStarted of the compact task, is not persisted in some versions: openai/codex@001cb8e233f250c7086c791c51390286c087faea:codex-rs/core/src/rollout/policy.rs:52-53,
 * codex-rs/core/src/compact.rs `run_compact_task_inner`). So:
 * - after a prompt `/compact` with no model output since: manual;
 * - inside a turn, after the model answered: automatic (the automatic check runs after each
 *   sampling request, `token_limit_reached` then `continue`; a manual `/compact` is a task of its
 *   own, run between turns);
 * - in a rollout that records no `task_complete` (0.63 and 0.64 persist neither task event), the
 *   model's final message (no tool call or output after it) ends the turn: a compaction there is
 *   at a turn boundary. Real 0.64.0 rollouts of MaksimKravchuk/brain_buddy hold 10 such, each
 *   10 s to 31 min after the final answer, before the next prompt, at 49k-133k of a 258,400 window:
 *   read as automatic inside an open turn, the replay counted 10 automatic compactions it could
 *   not reproduce (7 missing, 3 farther);
 * - at a turn boundary: manual when the last call's context is under 75% of the recorded window
 *   (far under the automatic limit), automatic when near it (the pre-turn check);
 * - no window or no call known: automatic, as Codex's default.
 */
export function inferTrigger(
  turn: TurnState,
  lastContext: TokenCount | undefined,
): { trigger: string; why: string } {
  if (turn.prompt?.trimStart().startsWith('/compact') && !turn.modelOutput)
    return { trigger: 'manual', why: 'a /compact prompt with no model output after it' };
  const ended = turn.answered === true && turn.taskEvents !== true;
  if (turn.open && turn.modelOutput && !ended)
    return {
      trigger: 'auto',
      why: 'inside a turn, after the model answered: only the automatic check runs there',
    };
  if (lastContext === undefined || turn.window === undefined || turn.window <= 0)
    return {
      trigger: 'auto',
      why: 'at a turn boundary; no window or call recorded to tell, automatic by default',
    };
  const pct = Math.round((lastContext / turn.window) * 100);
  const where = ended ? 'after the final answer (no task events recorded)' : 'at a turn boundary';
  return lastContext < turn.window * MANUAL_BELOW_WINDOW_SHARE
    ? {
        trigger: 'manual',
        why: `${where} with the last call at ${pct}% of the window, far under the automatic limit`,
      }
    : {
        trigger: 'auto',
        why: `${where} with the last call at ${pct}% of the window, near the automatic limit`,
      };
}
