import type { CompactionPoint } from '../../engine/summarize/span';

/**
 * The one key of a compaction point, "api-call:27" or "compaction:2": query keys, stored runs and
 * the replay's summary sizes all use it.
 */
export function getPointKey(point: CompactionPoint): string {
  return point.kind === 'api-call' ? `api-call:${point.apiCallIndex}` : `compaction:${point.compactionIndex}`;
}
