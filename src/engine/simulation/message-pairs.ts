import { lowerBound } from './search';

// Cline's API history (`api_conversation_history.json`) against the replay's call axis. Each
// request adds one user message and gets one assistant message: message 0 is the task, user
// message 2j (j ≥ 1) is what call j sends (the results of call j − 1's tools), assistant 2j + 1
// is call j's response. The usage grows from call j to call j + 1 by response j and the results
// that follow it, so the positions [callPos[j], callPos[j+1]) carry assistant 2j + 1 and user
// 2j + 2. A UI log has no separate entry for those results, so a range of messages is placed by
// its user messages (the results, nearly all of the tokens): the first user–assistant pair kept
// is the task, [0, callPos[0]), and the first response travels with the results Cline drops.

/**
 * Context positions [from, to) of API history messages [first, last] (inclusive, Cline's
 * `conversationHistoryDeletedRange`): the calls whose results are user messages ⌈first/2⌉ …
 * ⌊last/2⌋, i.e. calls ⌈first/2⌉ − 1 … ⌊last/2⌋ − 1, clipped to the axis.
 */
export function getMessageRangePositions(callPos: Int32Array, first: number, last: number): [number, number] {
  const calls = callPos.length - 1;
  const a = Math.min(Math.max(Math.ceil(first / 2) - 1, 0), calls);
  const b = Math.min(Math.max(Math.floor(last / 2), a), calls);
  return [callPos[a]!, callPos[b]!];
}

/** The first API history message held at or after position `pos` (the user message of its call's results). */
export function getMessageAt(callPos: Int32Array, pos: number): number {
  return 2 * (lowerBound(callPos, pos) + 1);
}
