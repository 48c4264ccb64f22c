import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTES, rewriteText } from '../../scripts/rewrite-citations.mjs';

// docs/sources.md restates the reference notes the code cites; scripts/rewrite-citations.mjs turns
// each citation into a link to one of its sections. Every anchor the script can write must exist.

const SOURCES = readFileSync(join(__dirname, '../../docs/sources.md'), 'utf8');
const ids = new Set([...SOURCES.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]));

describe('docs/sources.md and the citation rewrite', () => {
  it('has every anchor the rewrite maps to', () => {
    const anchors = NOTES.flatMap((n) => [
      n.doc,
      ...n.titles.map(([, a]) => a),
      ...Object.values(n.sections ?? {}).filter((a): a is string => a !== null),
      ...Object.values(n.idents ?? {}),
      ...(n.rowHints ?? []).map(([, a]) => a),
      ...(n.steps ? [n.steps] : []),
      ...(n.edgeCases ? [n.edgeCases] : []),
    ]);
    expect(anchors.filter((a) => !ids.has(a))).toEqual([]);
  });

  it('rewrites each citation form to its section', () => {
    const cases: [string, string][] = [
      ['// v2.1.68 "Threshold": the cap', '// v2.1.68 (docs/sources.md#cc-threshold): the cap'],
      ["// v2.1.68 'Five compaction mechanisms'", '// v2.1.68 (docs/sources.md#cc-five-mechanisms)'],
      [
        '// claude-code-compaction-v2.1.68.txt "Full mechanism" step 7',
        '// docs/sources.md#cc-full-mechanism step 7',
      ],
      ['// (compact-system.md "Micro-Compact Function: Si()")', '// (docs/sources.md#ccs-microcompact)'],
      [
        'const S = \'research/ANCHORS.md §2.1 "OpenCode" (anomalyco/opencode compaction.ts)\';',
        "const S = 'docs/sources.md#opencode (anomalyco/opencode compaction.ts)';",
      ],
      ['// (FORMAT.md §4.3, §8.3)', '// (docs/sources.md#fmt-around-compaction, #fmt-tolerate)'],
      [
        `const V2168 = 'claude-code-compaction-v2.1.68.txt';\nconst s = \`\${V2168} "Threshold" (20,000)\`;\n`,
        'const s = `docs/sources.md#cc-threshold (20,000)`;\n',
      ],
    ];
    for (const [before, after] of cases) expect(rewriteText(before).text).toBe(after);
  });

  it('leaves profile ids and unknown sections alone, and reports the latter', () => {
    const code = "const profile = 'v2.1.68';\nif (p === 'v2.1.68') x();";
    expect(rewriteText(code).text).toBe(code);
    const unknown = rewriteText('// compact-system.md "No Such Section"');
    expect(unknown.text).toBe('// compact-system.md "No Such Section"');
    expect(unknown.unmapped).toHaveLength(1);
  });
});
