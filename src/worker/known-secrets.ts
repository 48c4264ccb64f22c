import type { ByteSource } from '../engine/parse/source';
import type { KnownSecret, RedactionSettings } from '../engine/redact/mask';
import { collectKnownSecrets } from '../engine/redact/session-secrets';
import type { Session } from '../engine/types';

// Every value the session's scan finds, kept per session (a scan reads every record): exports,
// summarizer requests and what comes back from a summarizer mask each wherever it occurs (issue 22).
// Held in the worker only: the page receives masked text, never these values.

const cache = new WeakMap<Session, readonly KnownSecret[]>();

async function getKnownSecrets(
  session: Session,
  sources: ByteSource[],
  signal?: AbortSignal,
): Promise<readonly KnownSecret[]> {
  const cached = cache.get(session);
  if (cached) return cached;
  // Only a finished scan is kept: an aborted one is not shared with the next caller.
  const known = await collectKnownSecrets(session, sources, signal);
  cache.set(session, known);
  return known;
}

/** The page's redaction settings with the session's found values added. */
export async function withSessionSecrets(
  redaction: RedactionSettings,
  session: Session,
  sources: ByteSource[],
  signal?: AbortSignal,
): Promise<RedactionSettings> {
  return {
    ...redaction,
    known: [...(redaction.known ?? []), ...(await getKnownSecrets(session, sources, signal))],
  };
}
