import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { parseSession } from '../../src/engine/parse/parse-session';
import { getRowSummary } from '../../src/engine/query/row-page';
import { CORPUS, corpusOrSkip, FOREIGN } from '../helpers/corpus';

// Claude Code 2.1.x writes its thinking blocks as `{"type":"thinking","thinking":"","signature":…}`:
// the text is not kept in the log. The transcript called them "(redacted thinking)", which is
// another block type (`redacted_thinking`, the provider's encrypted reasoning) that the corpus
// never holds. Plain count: each assistant line's blocks, read with JSON.parse.

const present = corpusOrSkip('thinking whose text is not kept corpus test');

/** Claude Code logs of the corpus holding an empty thinking block, and their blocks by kind. */
function plainCounts(): { file: string; notKept: number; redacted: number; withText: number }[] {
  const out: { file: string; notKept: number; redacted: number; withText: number }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (path === FOREIGN) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl')) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('"thinking"')) continue;
        const c = { file: path, notKept: 0, redacted: 0, withText: 0 };
        for (const line of text.split('\n')) {
          if (!line.includes('thinking')) continue;
          let r: { type?: string; message?: { content?: unknown } };
          try {
            r = JSON.parse(line);
          } catch {
            continue;
          }
          if (r?.type !== 'assistant' || !Array.isArray(r.message?.content)) continue;
          for (const b of r.message.content as Record<string, unknown>[]) {
            if (b?.type === 'redacted_thinking') c.redacted++;
            else if (b?.type === 'thinking' && b.thinking === '' && typeof b.signature === 'string')
              c.notKept++;
            else if (b?.type === 'thinking') c.withText++;
          }
        }
        if (c.notKept + c.redacted > 0) out.push(c);
      }
    }
  };
  walk(CORPUS);
  return out;
}

describe.skipIf(!present)('corpus: thinking blocks whose text the log does not keep', () => {
  it('are named so in the rows and the dump, never "redacted"; the corpus holds no redacted_thinking', async () => {
    const files = plainCounts();
    const total = files.reduce((s, f) => s + f.notKept, 0);
    expect(total).toBeGreaterThan(400);
    expect(files.reduce((s, f) => s + f.redacted, 0)).toBe(0);
    for (const f of files) {
      const session = await parseSession([createNodeFileSource(f.file)]);
      let notKept = 0;
      const rowsWithOne: number[] = [];
      for (const e of session.entries) {
        const n = e.blocks.filter((b) => b.kind === 'thinking' && b.hidden === 'not-kept').length;
        notKept += n;
        if (n > 0) rowsWithOne.push(e.index);
        expect(e.blocks.some((b) => b.kind === 'thinking' && b.hidden === 'redacted')).toBe(false);
      }
      expect(notKept, f.file).toBe(f.notKept);
      for (const i of rowsWithOne.slice(0, 20)) {
        const row = getRowSummary(session, i, 0).text;
        expect(row).toContain('(thinking, its text not kept in the log)');
        expect(row).not.toContain('redacted');
      }
      const dump = formatSessionDump(session);
      expect(dump.match(/thinking\(text not kept\)/g)?.length ?? 0, f.file).toBe(f.notKept);
      expect(dump).not.toContain('thinking(redacted)');
    }
    console.log(`${total} thinking blocks without their text in ${files.length} Claude Code logs`);
  }, 120_000);
});
