import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { corpusOrSkip, foreignFiles } from '../helpers/corpus';

// Codex's running total only grows: a token_count line moved after later ones repeats a request
// already counted (a shuffled rollout counted 75 calls for 65). A knob out of its range is an
// error, not a value clamped without a word (--window 0 became 10,000 with negative thresholds).

const rollouts = foreignFiles().filter((f) => /rollout-.*\.jsonl$/.test(f));

describe('Codex token_count lines out of order', () => {
  it.skipIf(!corpusOrSkip('Codex token_count order'))(
    'count each request once on real rollouts whose token_count lines run backwards',
    async () => {
      expect(rollouts.length).toBeGreaterThan(0);
      for (const path of rollouts) {
        const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
        const at = lines.flatMap((l, k) => (l.includes('"type":"token_count"') ? [k] : []));
        // Each token_count line moved to the place of another, in reverse order.
        const reversed = [...lines];
        at.forEach((k, i) => {
          reversed[k] = lines[at[at.length - 1 - i]!]!;
        });
        const name = path.split('/').pop()!;
        const clean = await parseSession([createMemorySource(name, `${lines.join('\n')}\n`)]);
        const shuffled = await parseSession([createMemorySource(name, `${reversed.join('\n')}\n`)]);
        expect(shuffled.apiCalls.length, name).toBe(clean.apiCalls.length);
        if (at.length > 2)
          expect(shuffled.issues.map((i) => i.message).join('\n'), name).toMatch(/out of order/);
      }
    },
  );
});

describe('replay knobs out of range', () => {
  it('--window 0 is an error naming the minimum, not a silent 10,000', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err.push(String(chunk));
      return true;
    });
    try {
      const code = await main(['replay', 'tests/fixtures/tiny.jsonl', '--window', '0'], () => {});
      expect(code).toBe(2);
      expect(err.join('')).toContain('--window is at least 10,000 tokens, got "0"');
      err.length = 0;
      expect(
        await main(['replay', 'tests/fixtures/tiny.jsonl', '--knob', 'contextWindow=-5'], () => {}),
      ).toBe(2);
      expect(err.join('')).toContain('--knob contextWindow is at least 10,000 tokens');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('an OpenCode storage folder missing one message file', () => {
  it('is one session (its orphan parts named), not two of one id', async () => {
    const { cpSync, mkdtempSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-opencode-'));
    cpSync('tests/fixtures/opencode/storage', dir, { recursive: true });
    const messages = join(dir, 'message', readdirSync(join(dir, 'message'))[0]!);
    const gone = readdirSync(messages).sort()[2]!;
    rmSync(join(messages, gone));
    const out: string[] = [];
    expect(await main(['stats', dir, '--jobs', '1'], (t) => out.push(t))).toBe(0);
    expect(out).toHaveLength(1);
    const report: string[] = [];
    expect(await main(['inspect', dir, '--json'], (t) => report.push(t))).toBe(0);
    const issues = JSON.parse(report.join('\n')).issues.map((i: { message: string }) => i.message);
    expect(issues.join('\n')).toContain(gone.replace('.json', ''));
  });
});

describe('a Cline task folder mixed from two tasks', () => {
  it('says its API history was written away from its UI log and reads the task without it (never merged); a real folder reads whole', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = 'tests/fixtures/cline-task';
    const names = ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'];
    const files = names.map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
    const own = await parseSession(files.map((f) => createMemorySource(f.name, f.text)));
    expect(own.issues.filter((i) => /two sessions/.test(i.message))).toEqual([]);
    // The other task: the same history written three days later.
    const history = JSON.parse(files[1]!.text) as { ts?: number }[];
    for (const m of history) if (m.ts !== undefined) m.ts += 3 * 86_400_000;
    files[1] = { ...files[1]!, text: JSON.stringify(history) };
    const mixed = await parseSession(files.map((f) => createMemorySource(f.name, f.text)));
    expect(mixed.issues).toContainEqual(
      expect.objectContaining({
        fileIndex: 1,
        code: 'wrong-shape',
        message: expect.stringMatching(
          /^api_conversation_history\.json was written from .* away from ui_messages\.json .*another session's file .*left out of this one: open it alone/,
        ),
      }),
    );
    // Not merged: the task read is the UI log's alone (its entries, none of the other file's), the
    // other file listed; opened alone, the other task reads as its own session.
    const uiOnly = await parseSession([files[0]!, files[2]!].map((f) => createMemorySource(f.name, f.text)));
    expect(mixed.entries.length).toBe(uiOnly.entries.length);
    expect(mixed.entries.filter((e) => e.fileIndex === 1)).toEqual([]);
    expect(mixed.apiCalls.length).toBe(uiOnly.apiCalls.length);
    expect(mixed.files.map((f) => f.name)).toEqual(names);
    expect(own.entries.length).toBeGreaterThan(uiOnly.entries.length);
    const other = await parseSession([createMemorySource(files[1]!.name, files[1]!.text)]);
    expect(other.entries.length).toBeGreaterThan(0);
  });
});

describe('a claude-trace request re-sending an old message changed', () => {
  it('is an edit of the history (the edited message and an issue), not the whole history again', async () => {
    const { readFileSync } = await import('node:fs');
    const name = 'log-2025-08-04-14-20-00.jsonl';
    const lines = readFileSync(`tests/fixtures/api/claude-code/${name}`, 'utf8').trimEnd().split('\n');
    const parse = (text: string) => parseSession([createMemorySource(name, text)]);
    const clean = await parse(`${lines.join('\n')}\n`);
    // The last request whose body re-sends three or more messages: its first message changed by one character.
    const sends = lines.map((l) => (JSON.parse(l).request?.body?.messages?.length ?? 0) >= 3);
    const k = sends.lastIndexOf(true);
    expect(k).toBeGreaterThan(0);
    const record = JSON.parse(lines[k]!);
    const first = record.request.body.messages[0];
    if (typeof first.content === 'string') first.content = `${first.content}!`;
    else first.content[0].text = `${first.content[0].text}!`;
    const changed = [...lines];
    changed[k] = JSON.stringify(record);
    const session = await parse(`${changed.join('\n')}\n`);
    // One history-change event and the edited message: two entries more, not every message again.
    expect(session.entries.length).toBe(clean.entries.length + 2);
    expect(session.apiCalls.length).toBe(clean.apiCalls.length);
    expect(session.issues).toContainEqual(
      expect.objectContaining({
        line: k + 1,
        message: expect.stringMatching(
          /re-sends 1 earlier message changed \(messages\[0\]\): an edit of the history/,
        ),
      }),
    );
  });
});
