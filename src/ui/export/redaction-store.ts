import { useMemo } from 'react';
import { create } from 'zustand';
import type { RedactionSettings } from '../../engine/redact/mask';
import type { SessionId } from '../../worker/protocol';

// Which secrets the user unmasked, per session. Everything else is masked in every export and in
// every summarizer request. Ids only (a kind and a hash): never the secret itself.

interface RedactionState {
  sessionId?: SessionId;
  unmasked: readonly string[];
  toggle(sessionId: SessionId, id: string): void;
}

const NONE: readonly string[] = Object.freeze([]);

export const useRedactionStore = create<RedactionState>()((set) => ({
  unmasked: NONE,
  toggle: (sessionId, id) =>
    set((s) => {
      const current = s.sessionId === sessionId ? s.unmasked : NONE;
      return {
        sessionId,
        unmasked: current.includes(id) ? current.filter((x) => x !== id) : [...current, id],
      };
    }),
}));

/** The redaction settings of a session (the same object while they do not change). */
export function useRedaction(sessionId: SessionId): RedactionSettings {
  const unmasked = useRedactionStore((s) => (s.sessionId === sessionId ? s.unmasked : NONE));
  return useMemo(() => ({ unmasked }), [unmasked]);
}

/** The current settings, outside React (the Export menu's click handlers). */
export function getRedaction(sessionId: SessionId): RedactionSettings {
  const s = useRedactionStore.getState();
  return { unmasked: s.sessionId === sessionId ? s.unmasked : NONE };
}
