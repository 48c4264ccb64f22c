import { expect } from 'vitest';
import type {
  ReplayEvent,
  ReplayEventFields,
  ReplayEventKind,
  ReplayEventOf,
} from '../../src/engine/replay/types';

// Reading replay events in tests: narrowed by kind (failing the test on another kind), or as the
// flat record display code reads (`ReplayEventFields`) where a check spans kinds.

/** The event, which must be of this kind. */
export function expectKind<K extends ReplayEventKind>(
  event: ReplayEvent | undefined,
  kind: K,
): ReplayEventOf<K> {
  expect(event?.kind).toBe(kind);
  return event as ReplayEventOf<K>;
}

/** The events of one kind. */
export function ofKind<K extends ReplayEventKind>(
  events: readonly ReplayEvent[],
  kind: K,
): ReplayEventOf<K>[] {
  return events.filter((e): e is ReplayEventOf<K> => e.kind === kind);
}

/** Any event as one flat record (fields of other kinds absent). */
export const fieldsOf = (event: ReplayEvent): ReplayEventFields => event;
