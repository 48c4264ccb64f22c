import type { SessionMeta } from '../types';

// A session's meta said in words where its plain fields would mislead, the same in the list, the
// page's header, `compactlab inspect` and the exports.

/**
 * A prompt log (a project's prompts over many sessions, no model calls: `SessionMeta.promptLog`)
 * said as what it is, not as a session named by its first prompt whose span is every session's:
 * "Prompt log: 998 prompts over 60 sessions, no model calls".
 */
export function describePromptLog(log: NonNullable<SessionMeta['promptLog']>): string {
  const prompts = `${log.prompts.toLocaleString('en-US')} ${log.prompts === 1 ? 'prompt' : 'prompts'}`;
  const sessions = `${log.sessions.toLocaleString('en-US')} ${log.sessions === 1 ? 'session' : 'sessions'}`;
  return `Prompt log: ${prompts} over ${sessions}, no model calls`;
}

/**
 * The models that answered; with none, the models the log was set to, said as such
 * ("llama3.1:8b (set; no call answered)"); else undefined (the caller's "?").
 */
export function describeModels(meta: Pick<SessionMeta, 'models' | 'setModels'>): string | undefined {
  if (meta.models.length > 0) return meta.models.join(', ');
  if (meta.setModels?.length) return `${meta.setModels.join(', ')} (set; no call answered)`;
  return undefined;
}
