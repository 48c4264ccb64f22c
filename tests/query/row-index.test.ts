import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import { computeDisplayOrder } from '../../src/engine/query/display-order';
import { ALL_FILTER_KINDS } from '../../src/engine/query/entry-kinds';
import { DEFAULT_ROW_FILTER, getRowFilterKey } from '../../src/engine/query/row-filter';
import { computeRowIndex } from '../../src/engine/query/row-index';
import { entryByUuid, parseFixtureSession } from './session-fixture';

describe('computeRowIndex', () => {
  it('shows every entry exactly once with all kinds and no search', async () => {
    const session = await parseFixtureSession();
    const indices = computeRowIndex(session, DEFAULT_ROW_FILTER);
    expect(indices).toBeInstanceOf(Int32Array);
    expect(indices.length).toBe(session.entries.length);
    expect(new Set(indices).size).toBe(session.entries.length);
  });

  it('places subagent entries right under the Task call that spawned them, indented', async () => {
    const session = await parseFixtureSession();
    const indices = Array.from(computeRowIndex(session, DEFAULT_ROW_FILTER));
    const task = entryByUuid(session, 'a3');
    const taskRow = indices.indexOf(task);
    const subagent = ['sa1', 'sa2', 'sa3', 'sa4'].map((u) => entryByUuid(session, u));
    expect(indices.slice(taskRow + 1, taskRow + 5)).toEqual(subagent);
    expect(indices[taskRow + 5]).toBe(entryByUuid(session, 'u3')); // then the Task's result
    const { depthByEntry } = computeDisplayOrder(session);
    expect(depthByEntry[task]).toBe(0);
    for (const i of subagent) expect(depthByEntry[i]).toBe(1);
  });

  it('appends a subagent whose spawner is unknown at the end, still indented', async () => {
    const session = await parseFixtureSession();
    at(session.sidechains, 0).spawnedBy = undefined;
    const { order, depthByEntry } = computeDisplayOrder(session);
    const subagent = ['sa1', 'sa2', 'sa3', 'sa4'].map((u) => entryByUuid(session, u));
    expect(Array.from(order.slice(-4))).toEqual(subagent);
    for (const i of subagent) expect(depthByEntry[i]).toBe(1);
  });

  it('filters by kind', async () => {
    const session = await parseFixtureSession();
    const toolCalls = computeRowIndex(session, { kinds: ['tool-call'], search: '' });
    const names = Array.from(toolCalls, (i) =>
      at(session.entries, i).blocks.find((b) => b.kind === 'tool-use'),
    );
    expect(names.map((b) => (b?.kind === 'tool-use' ? b.name : '?'))).toEqual([
      'Read',
      'Task',
      'Glob',
      'Bash',
      'Grep',
    ]);

    const compaction = Array.from(computeRowIndex(session, { kinds: ['compaction'], search: '' }));
    expect(compaction).toEqual(['b1', 's1', 'm1', 'b2', 's2'].map((u) => entryByUuid(session, u)));

    const thinking = Array.from(computeRowIndex(session, { kinds: ['thinking'], search: '' }));
    expect(thinking).toEqual([entryByUuid(session, 'a1')]);

    const unknown = Array.from(computeRowIndex(session, { kinds: ['unknown'], search: '' }));
    expect(unknown).toEqual([entryByUuid(session, 'x1')]);

    const meta = Array.from(computeRowIndex(session, { kinds: ['meta'], search: '' }));
    expect(meta).toContain(entryByUuid(session, 'c1')); // isMeta user entry
    expect(meta).toContain(0); // the summary title record

    const user = Array.from(computeRowIndex(session, { kinds: ['user-text'], search: '' }));
    expect(user).toContain(entryByUuid(session, 'u1'));
    expect(user).toContain(entryByUuid(session, 'u5')); // text + image
    expect(user).not.toContain(entryByUuid(session, 'c1'));
    expect(user).not.toContain(entryByUuid(session, 's1')); // a compact summary counts as compaction

    expect(computeRowIndex(session, { kinds: [], search: '' }).length).toBe(0);
  });

  it('searches previews, tool names, file paths and commands case-insensitively', async () => {
    const session = await parseFixtureSession();
    const find = (search: string) =>
      Array.from(computeRowIndex(session, { kinds: [...ALL_FILTER_KINDS], search }));
    expect(find('flaky TEST')).toContain(entryByUuid(session, 'u1'));
    expect(find('src/PARSER.ts')).toContain(entryByUuid(session, 'a2')); // file path of a Read
    expect(find('--grep parser')).toEqual([entryByUuid(session, 'a4')]); // Bash command
    expect(find('bash')).toEqual(
      expect.arrayContaining([entryByUuid(session, 'a4'), entryByUuid(session, 'u4')]),
    );
    expect(find('subagent way')).toEqual([entryByUuid(session, 'sa2')]);
    expect(find('   ')).toHaveLength(session.entries.length);
    expect(find('no such text anywhere')).toEqual([]);
  });

  it('search and kinds combine', async () => {
    const session = await parseFixtureSession();
    const rows = Array.from(computeRowIndex(session, { kinds: ['tool-result'], search: 'parser' }));
    expect(rows.every((i) => at(session.entries, i).blocks.some((b) => b.kind === 'tool-result'))).toBe(true);
    expect(rows).toContain(entryByUuid(session, 'u4'));
    expect(rows).not.toContain(entryByUuid(session, 'u1'));
  });

  it('gives filters a key that ignores kind order and search case', () => {
    expect(getRowFilterKey({ kinds: ['thinking', 'system'], search: ' Foo ' })).toBe(
      getRowFilterKey({ kinds: ['system', 'thinking'], search: 'foo' }),
    );
  });
});
