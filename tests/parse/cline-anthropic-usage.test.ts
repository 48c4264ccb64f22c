import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { REAL_LOGS } from '../helpers/corpus';

// Cline's task history through the Anthropic provider (api-history.ts): `metrics.tokens.prompt` is
// the uncached input alone and `cached` the cache writes and reads on top of it. Two real tasks of
// gmfstu/Online-Card-Architecture (restored by scripts/restore-real-logs.mjs), each with its UI
// log, whose `api_req_started` records split the same counts: a plain count of that log is the
// reference. Read as a part of `prompt`, every call's context was 10 tokens, with a warning per call
// (47 and 36), in the folder too.

const TASKS = ['exported_conversation_1769053680585', 'exported_task_1769064454592'].map((t) =>
  join(REAL_LOGS, 'gmfstu__Online-Card-Architecture', t),
);
const present = TASKS.every((t) => existsSync(join(t, 'api_conversation_history.json')));
if (!present) console.warn(`the Cline Anthropic-usage test is skipped: ${TASKS[0]} is not restored`);

/** Per `api_req_started` of the UI log: tokensIn + cacheWrites + cacheReads (its request's context). */
function uiContexts(task: string): number[] {
  const ui = JSON.parse(readFileSync(join(task, 'ui_messages.json'), 'utf8')) as {
    say?: string;
    text?: string;
  }[];
  return ui
    .filter((m) => m.say === 'api_req_started')
    .map((m) => JSON.parse(m.text ?? '{}') as Record<string, number>)
    .map((r) => (r.tokensIn ?? 0) + (r.cacheWrites ?? 0) + (r.cacheReads ?? 0));
}

describe.skipIf(!present)('Cline: a real task history through the Anthropic provider', () => {
  it.each(TASKS.map((t) => [basename(t), t]))(
    'reads each call of %s as its UI log counts it, without a warning',
    async (_, task) => {
      const expected = uiContexts(task);
      expect(expected.length).toBeGreaterThan(30);
      const alone = await parseSession([createNodeFileSource(join(task, 'api_conversation_history.json'))]);
      expect(alone.issues).toEqual([]);
      expect(alone.apiCalls.map((c) => c.contextTokens)).toEqual(expected);
      // `prompt` stays the uncached input; `cached` (writes and reads, one count here) the rest.
      expect(alone.apiCalls[0]!.usage).toMatchObject({ inputTokens: 10 });
      const folder = await parseSession(
        ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'].map((f) =>
          createNodeFileSource(join(task, f)),
        ),
      );
      expect(folder.issues).toEqual([]);
      expect(folder.apiCalls.map((c) => c.contextTokens)).toEqual(expected);
    },
  );
});
