import type { TokenCount } from '../types';

// The compact boundary record Claude Code writes (`S91`, docs/sources.md#ccs-boundary; docs/sources.md#fmt-compact-boundary), for showing what a simulated compaction would log.

export interface BoundaryMarker {
  type: 'system';
  subtype: 'compact_boundary';
  content: 'Conversation compacted';
  isMeta: false;
  level: 'info';
  compactMetadata: { trigger: 'auto' | 'manual'; preTokens: TokenCount };
}

/** `S91` without the per-record uuid and timestamp. */
export function createBoundaryMarker(trigger: 'auto' | 'manual', preTokens: TokenCount): BoundaryMarker {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    level: 'info',
    compactMetadata: { trigger, preTokens },
  };
}
