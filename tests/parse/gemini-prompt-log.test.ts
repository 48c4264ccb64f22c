import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { parseSession } from '../../src/engine/parse/parse-session';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// Issue 18 item 10: Gemini CLI's `logs.json` (the prompts typed in a project, beside its `chats/`)
// was reported "not a transcript" and dropped by `stats`. On the real one (../shared/corpus/foreign,
// brexp/infra: 141 prompts over several sessions) it is named, read as user entries with no API
// call, and listed by stats beside its three chats.

const present = corpusOrSkip('Gemini prompt-log test');
const PROJECT = 'brexp__infra/.gemini/tmp/95ab8478b5fc136a91eda9228bafb63a3c8fa4b561663162a9579f8add166c22';

describe.skipIf(!present)('Gemini CLI prompt log (logs.json)', () => {
  it('is read as the project prompts it holds, with no API calls and no issues', async () => {
    const path = join(FOREIGN, PROJECT, 'logs.json');
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { type: string }[];
    const session = await parseSession([createNodeFileSource(path)]);
    expect(session.format).toBe('gemini-cli-logs');
    expect(session.meta.agent).toBe('Gemini CLI');
    expect(session.entries.filter((e) => e.kind === 'user')).toHaveLength(
      raw.filter((r) => r.type === 'user').length,
    );
    expect(session.entries).toHaveLength(raw.length);
    expect(session.apiCalls).toHaveLength(0);
    expect(session.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('stats lists it beside the chats, named as a prompt log', async () => {
    const path = join(FOREIGN, PROJECT, 'logs.json');
    const row = await computeStatsRow(path, [createNodeFileSource(path)]);
    expect(row).toMatchObject({
      agent: 'Gemini CLI',
      format: 'gemini-cli-logs',
      apiCalls: 0,
      userTurns: 141,
    });
  });
});
