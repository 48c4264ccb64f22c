import { lowerBound } from '../../simulation/search';

// Claude Code's rapid-refill breaker (docs/sources.md#cc-refill-breaker, read from the npm package's
// cli.js of 2.1.89–2.1.92): an automatic compaction due within RAPID_REFILL_CALLS calls of
// the previous one is a rapid refill; the third in a row is not made, and the request ends with
// "Autocompact is thrashing: the context refilled to the limit within 3 turns of the previous
// compact, 3 times in a row." (the CLI's own text, written as a synthetic answer in the real logs:
// a corpus Claude Code 2.1.92 subagent of session 05541cb5 compacts after its calls 1, 2 and 3 and
// stops so at call 4). The count lives in one request's loop: a new user turn starts it over (the
// same session's main thread compacts after calls 1, 2, 3 and, after the user's next prompt,
// again after call 4).

/** `turnCounter < 3` (cli.js 2.1.89, the message's "within 3 turns"): a turn is one call of the loop. */
const RAPID_REFILL_CALLS = 3;
/** Refused when the count reaches 3 (cli.js 2.1.89, the message's "3 times in a row"). */
const TRIP_REFILLS = 3;

export class RefillBreaker {
  /** The call and boundary of the last compaction made in this request (−1: none yet). */
  private lastCall = -1;
  private lastPos = -1;
  private refills = 0;
  private tripped = false;

  /** `userTurnPos`: context positions of user turns, ascending (simulation/turns.ts). */
  constructor(private readonly userTurnPos: Int32Array) {}

  /** An automatic compaction is due after call `k` (its boundary at `boundaryPos`): whether the breaker refuses it. */
  refuses(k: number, boundaryPos: number): boolean {
    if (this.lastPos >= 0 && this.isNewRequest(boundaryPos)) {
      this.lastCall = -1;
      this.refills = 0;
      this.tripped = false;
    }
    if (!this.tripped && this.isRapid(k) && this.refills + 1 >= TRIP_REFILLS) this.tripped = true;
    return this.tripped;
  }

  /** A compaction was made after call `k` (one that failed, too long to summarize, refilled nothing). */
  made(k: number, boundaryPos: number): void {
    this.refills = this.isRapid(k) ? this.refills + 1 : 0;
    this.lastCall = k;
    this.lastPos = boundaryPos;
  }

  private isRapid(k: number): boolean {
    return this.lastCall >= 0 && k - this.lastCall < RAPID_REFILL_CALLS;
  }

  /** A user turn between the last compaction's boundary and this one. */
  private isNewRequest(boundaryPos: number): boolean {
    const i = lowerBound(this.userTurnPos, this.lastPos);
    return i < this.userTurnPos.length && this.userTurnPos[i]! < boundaryPos;
  }
}
