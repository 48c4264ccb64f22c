import { CLEARABLE_THINKING, type PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import type { TokenCount } from '../../types';
import type { ReplayView } from '../types';

// The API's `clear_thinking_20251015` edit (beta `context-management-2025-06-27`;
// docs/sources.md#api-clear-tool-uses, platform.claude.com "Context editing", "Thinking block clearing"):
// `keep: {type: "thinking_turns", value: N}` (N > 0, default 1) keeps the thinking blocks of the N
// most recent assistant turns that have any, `keep: "all"` keeps every one. Older thinking blocks
// are removed from the prompt; no trigger, no placeholder. An assistant turn may hold several
// messages and thinking blocks (tool use, interleaved thinking): here it is everything the
// assistant wrote between two prompts (`Clearables.turn`). The server applies the edit to every
// request, and a turn only gets older, so clearing each block once when its turn falls out of
// the kept N is the same.

/** `keep.value` default (the page's table: `{type: "thinking_turns", value: 1}`). */
export const DEFAULT_KEEP_THINKING_TURNS = 1;

/** Tokens a cleared thinking block leaves: none, the block is removed. */
export const THINKING_PLACEHOLDER_TOKENS: TokenCount = 0;

/** Which thinking blocks the edit removes from each request; tracks what it already removed. */
export class ThinkingClearer {
  /** Thinking items (indices into `clearables`), in context order. */
  private readonly items: Int32Array;
  private readonly itemPos: Int32Array;
  /** Items before this index are cleared or gone with a compaction. */
  private done = 0;
  /** Tokens of the cleared items still in the live history. */
  private liveSaved: TokenCount = 0;
  private liveFrom = 0;

  constructor(
    private readonly prepared: PreparedReplay,
    /** Turns kept; `undefined` keeps all (`keep: "all"`). */
    private readonly keepTurns: number | undefined,
  ) {
    const { tool, pos } = prepared.clearables;
    const list: number[] = [];
    for (let i = 0; i < tool.length; i++) if (tool[i] === CLEARABLE_THINKING) list.push(i);
    this.items = Int32Array.from(list);
    this.itemPos = Int32Array.from(list.map((i) => pos[i]!));
  }

  /**
   * Thinking tokens the edit removes from the request that follows `view`'s call: those removed
   * before (`alreadySaved`) and the new `items` with their tokens, as the history prices them.
   */
  select(view: ReplayView): {
    items: number[];
    savedTokens: TokenCount;
    estimatedTokens: TokenCount;
    alreadySaved: TokenCount;
  } {
    const { clearables } = this.prepared;
    if (view.liveFromPos !== this.liveFrom) this.restart(view);
    const end = lowerBound(this.itemPos, view.boundaryPos);
    // Blocks a compaction summarized are not in the request: neither counted nor cleared.
    const from = Math.max(this.done, lowerBound(this.itemPos, view.liveFromPos));
    const items: number[] = [];
    let savedTokens = 0;
    let estimatedTokens = 0;
    if (this.keepTurns !== undefined && end > from) {
      // The first item of the oldest kept turn: walk back over `keepTurns` distinct turns.
      let cut = end;
      let turns = 0;
      let turn = -1;
      for (let r = end - 1; r >= from; r--) {
        const t = clearables.turn[this.items[r]!]!;
        if (t !== turn) {
          if (turns === this.keepTurns) break;
          turns++;
          turn = t;
        }
        cut = r;
      }
      for (let r = from; r < cut; r++) {
        const i = this.items[r]!;
        if (view.isCleared(i)) continue;
        items.push(i);
        savedTokens += Math.max(0, clearables.tokens[i]! - THINKING_PLACEHOLDER_TOKENS);
        estimatedTokens += clearables.estimate[i]!;
      }
      this.done = Math.max(this.done, cut);
    }
    const alreadySaved = this.liveSaved;
    this.liveSaved += savedTokens;
    return { items, savedTokens, estimatedTokens, alreadySaved };
  }

  /** A compaction moved the start of the live history: count what is still cleared after it. */
  private restart(view: ReplayView): void {
    this.liveFrom = view.liveFromPos;
    this.liveSaved = 0;
    const { tokens } = this.prepared.clearables;
    for (let r = lowerBound(this.itemPos, view.liveFromPos); r < this.done; r++) {
      const i = this.items[r]!;
      if (view.isCleared(i)) this.liveSaved += Math.max(0, tokens[i]! - THINKING_PLACEHOLDER_TOKENS);
    }
  }
}
