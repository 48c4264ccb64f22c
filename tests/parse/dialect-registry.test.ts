import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import {
  detectDialectFromName,
  detectDialectFromRecord,
  detectFileRole,
  isFolderFileName,
  loadsAfterMain,
} from '../../src/engine/parse/detect';
import type { DialectDescriptor } from '../../src/engine/parse/dialects/descriptor';
import { NO_RESTORATION } from '../../src/engine/parse/dialects/descriptor';
import { createEntry, isObject, type RecordNormalizer } from '../../src/engine/parse/dialects/record';
import { DIALECTS, getDialect } from '../../src/engine/parse/dialects/registry';
import { parseSession, readEntryRecord } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// A dialect is its descriptor: one made up here, handed to the generic code, must be detected by
// name and by structure, given its file roles and read by its normalizer, with no generic file
// knowing it.

/** Toy log lines: `{"toy": 1, "who": "me"|"bot", "say": "…"}`; a `hush:` line is not a turn. */
const toyNormalizer: RecordNormalizer = {
  dialect: 'toy',
  agent: 'Toy Agent',
  apiCalls: 'usage-records',
  normalize(record, ctx, index) {
    const entry = createEntry(ctx, index);
    if (isObject(record) && typeof record.say === 'string') {
      entry.type = 'toy';
      entry.kind = record.who === 'bot' ? 'assistant' : 'user';
      entry.blocks = [{ kind: 'text', text: record.say, chars: record.say.length }];
    }
    return { entry, extras: {} };
  },
};

const TOY: DialectDescriptor = {
  id: 'toy',
  label: 'Toy log',
  agent: 'Toy Agent',
  parsed: true,
  createNormalizer: () => toyNormalizer,
  restoration: NO_RESTORATION,
  files: {
    matchName: (base) => base.endsWith('.toylog'),
    matchRecord: (value) => isObject(value) && value.toy === 1,
    folderFile: (path) => path.endsWith('.toylog'),
    fileRole: (base) =>
      base.startsWith('helper-') ? { role: 'subagent', agentId: base.slice(7, -7) } : undefined,
    loadsAfterMain: (path) => path.includes('/helpers/'),
  },
  transcript: { isInjectedUserText: (text) => text.startsWith('hush:') },
};

const TOY_SEEN_ONLY: DialectDescriptor = {
  id: 'toy-ui',
  label: 'Toy UI state',
  parsed: false,
  restoration: NO_RESTORATION,
  files: { matchName: (base) => base === 'toy-ui.json' },
};

/** A whole-document dialect: `{"chat": [{"from": "me"|"bot", "say": "…"}, …]}` in `*.toychat`. */
const TOY_CHAT: DialectDescriptor = {
  id: 'toy-chat',
  label: 'Toy chat',
  agent: 'Toy Chat',
  parsed: true,
  createNormalizer: () => ({
    ...toyNormalizer,
    normalize: (record, ctx, index) =>
      toyNormalizer.normalize(isObject(record) ? { ...record, who: record.from } : record, ctx, index),
  }),
  restoration: NO_RESTORATION,
  files: {
    matchName: (base) => base.endsWith('.toychat'),
    matchRecord: (value) => isObject(value) && Array.isArray(value.chat),
    wholeJson: { maxBytes: 1_000_000, recordsKey: 'chat' },
  },
};

const dialects = [...DIALECTS, TOY, TOY_SEEN_ONLY, TOY_CHAT];
const lines = (...records: unknown[]) =>
  new TextEncoder().encode(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);

describe('a dialect added as a descriptor only', () => {
  it('is found by name and by structure, and nowhere else', () => {
    expect(detectDialectFromName('logs/run.toylog', dialects)?.id).toBe('toy');
    expect(detectDialectFromRecord({ toy: 1, say: 'hi' }, dialects)?.id).toBe('toy');
    expect(detectDialectFromName('logs/run.toylog')).toBeUndefined();
    expect(detectDialectFromRecord({ toy: 1, say: 'hi' })).toBeUndefined();
    expect(detectFileRole('s/helper-abc.toylog', dialects)).toEqual({ role: 'subagent', agentId: 'abc' });
    expect(isFolderFileName('s/run.toylog', dialects)).toBe(true);
    expect(isFolderFileName('s/run.toylog')).toBe(false);
    expect(loadsAfterMain('s/helpers/x.toylog', dialects)).toBe(true);
    expect(getDialect('toy')).toBeUndefined();
  });

  it('is read by its normalizer whether the name or the records say so', async () => {
    const records = [
      { toy: 1, who: 'me', say: 'add a flag' },
      { toy: 1, who: 'bot', say: 'done' },
      { toy: 1, who: 'me', say: 'hush: reminder' },
    ];
    const byStructure = await parseSession([createMemorySource('notes.jsonl', lines(...records))], {
      dialects,
    });
    expect(byStructure.format).toBe('toy');
    expect(byStructure.meta.agent).toBe('Toy Agent');
    expect(byStructure.issues).toEqual([]);
    expect(byStructure.entries.map((e) => e.kind)).toEqual(['user', 'assistant', 'user']);
    expect(byStructure.userTurns).toBe(1);

    // No record carries the `toy` mark: only the name says what these lines are.
    const plain = records.map(({ toy: _, ...rest }) => rest);
    const byName = await parseSession([createMemorySource('run.toylog', lines(...plain))], { dialects });
    expect(byName.format).toBe('toy');
    expect(byName.entries.map((e) => e.kind)).toEqual(['user', 'assistant', 'user']);
    const unknown = await parseSession([createMemorySource('run.toylog', lines(...plain))]);
    expect(at(unknown.issues, 0).message).toMatch(
      /none is a Claude Code, Codex CLI, Gemini CLI, pi or Anthropic Messages API record/,
    );
  });

  it('gives a helper file its role and groups it as a sidechain', async () => {
    const main = createMemorySource('s/run.toylog', lines({ toy: 1, who: 'me', say: 'go' }));
    const helper = createMemorySource(
      's/helpers/helper-h1.toylog',
      lines({ toy: 1, who: 'bot', say: 'sub' }),
    );
    const session = await parseSession([main, helper], { dialects });
    expect(session.files.map((f) => [f.role, f.agentId, f.dialect])).toEqual([
      ['main', undefined, 'toy'],
      ['subagent', 'h1', 'toy'],
    ]);
    expect(session.sidechains).toEqual([
      expect.objectContaining({ fileIndex: 1, agentId: 'h1', entryIndices: [1] }),
    ]);
  });

  it('as a whole JSON document, is read record by record, by name or by structure', async () => {
    const doc = {
      title: 't',
      chat: [
        { from: 'me', say: 'hi' },
        { from: 'bot', say: 'hello' },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    for (const name of ['talk.toychat', 'talk.json']) {
      const sources = [createMemorySource(name, new TextEncoder().encode(text))];
      const session = await parseSession(sources, { dialects });
      expect(session.format, name).toBe('toy-chat');
      expect(session.issues, name).toEqual([]);
      expect(session.entries.map((e) => e.kind)).toEqual(['user', 'assistant']);
      expect(await readEntryRecord(sources, session, 1)).toEqual(doc.chat[1]);
    }
  });

  it('without a normalizer, is named and refused with the readable formats listed', async () => {
    const session = await parseSession([createMemorySource('toy-ui.json', '{}')], { dialects });
    expect(session.format).toBe('toy-ui');
    expect(session.issues).toEqual([
      expect.objectContaining({ code: 'unsupported-dialect', severity: 'error' }),
    ]);
    expect(at(session.issues, 0).message).toMatch(
      /^toy-ui\.json is a Toy UI state; this version reads .*Toy log and Toy chat only$/,
    );
  });
});
