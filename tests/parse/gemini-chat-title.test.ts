import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { REAL_LOGS } from '../helpers/corpus';

// A Gemini CLI chat file names itself: `summary`, beside its messages, is what the CLI's /resume
// list shows. The seven real chats of fabien-lessirard/dotfiles had no title on the page, in
// inspect or in stats (the file name stood for six named ones); the reference is the raw
// document's `summary`, read plainly.

const CHATS = join(REAL_LOGS, 'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats');
const present = existsSync(CHATS);
if (!present) console.warn(`the Gemini chat-title test is skipped: ${CHATS} is not restored`);
const files = present ? readdirSync(CHATS).filter((f) => f.endsWith('.json')) : [];

describe.skipIf(!present)('a Gemini CLI chat’s own name is its title', () => {
  it('reads six named chats of seven', () => {
    const named = files.filter(
      (f) => typeof JSON.parse(readFileSync(join(CHATS, f), 'utf8')).summary === 'string',
    );
    expect([files.length, named.length]).toEqual([7, 6]);
  });
  it.each(files)('%s', async (name) => {
    const stated = (JSON.parse(readFileSync(join(CHATS, name), 'utf8')) as { summary?: string }).summary;
    const session = await parseSession([createNodeFileSource(join(CHATS, name))]);
    if (stated === undefined) expect(session.meta.title).toBeUndefined();
    else expect(session.meta.title).toEqual({ text: stated, source: 'summary', line: 1 });
  });
});
