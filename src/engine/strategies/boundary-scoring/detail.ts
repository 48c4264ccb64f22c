// What boundary scoring adds to its compaction events (`ReplayEvent.detail`, tagged
// `boundary-scoring`): the candidate splits it scored, which the event card charts and learn mode
// counts. Not in the dump (the golden test prints them itself).

/** One boundary the strategy scored: the chart beside an event shows them. */
export interface BoundaryCandidate {
  /** The first entry kept if the split falls here. */
  entryIndex: number;
  /** Index among the messages the strategy searched (the split's message index). */
  messageIndex: number;
  score: number;
  /** The score's terms that applied (base included), in points. */
  factors: { id: string; points: number }[];
  chosen: boolean;
  /** The split would part a tool_use from its result (or a streamed response): never chosen. */
  unsafe?: boolean;
}

interface BoundaryScoringEventDetail {
  kind: 'boundary-scoring';
  /** The candidate splits and their scores. */
  boundaryScores: BoundaryCandidate[];
}

export function createBoundaryScoringDetail(boundaryScores: BoundaryCandidate[]): BoundaryScoringEventDetail {
  return { kind: 'boundary-scoring', boundaryScores };
}

/** The candidate splits an event's compaction scored, when boundary scoring made it. */
export function getBoundaryScores(event: { detail?: { kind: string } }): BoundaryCandidate[] | undefined {
  return event.detail?.kind === 'boundary-scoring'
    ? (event.detail as BoundaryScoringEventDetail).boundaryScores
    : undefined;
}
