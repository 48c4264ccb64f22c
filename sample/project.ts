// The `tally` project's file contents and tool outputs (project-files.ts lists its files),
// synthesized from templates so that Read, Grep, Edit and test runs agree with each other (a Grep hit
// is a line of the file as last written).

import { type FileSpec, PROJECT_CWD } from './project-files';
import { createRng, type Rng } from './prng';

const ts = (lines: string[]): string => lines.join('\n');
// ---------------------------------------------------------------------------------------------
// Code synthesis.

const NOUNS = [
  'posting',
  'transaction',
  'account',
  'payee',
  'tag',
  'period',
  'budget',
  'balance',
  'column',
  'commodity',
  'entry',
  'total',
  'rate',
  'note',
  'row',
] as const;
const VERBS = [
  'collect',
  'filter',
  'group',
  'resolve',
  'normalize',
  'format',
  'split',
  'merge',
  'sort',
  'index',
  'validate',
  'render',
] as const;
const FIELDS = ['account', 'payee', 'date', 'amount', 'currency', 'line', 'tags', 'note'] as const;

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (noun: string): string => (noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`);

function tsFunction(rng: Rng, used: Set<string>): string {
  const noun = rng.pick(NOUNS);
  const verb = rng.pick(VERBS);
  let name = `${verb}${cap(plural(noun))}`;
  while (used.has(name)) name += `By${cap(rng.pick(FIELDS))}`;
  used.add(name);
  const Type = cap(noun === 'posting' || noun === 'transaction' ? noun : 'posting');
  const field = rng.pick(FIELDS);
  switch (rng.int(0, 5)) {
    case 0:
      return ts([
        `/** Every ${noun} whose ${field} is set and whose date falls inside \`period\`. */`,
        `export function ${name}(items: readonly ${Type}[], period: Period): ${Type}[] {`,
        `  const out: ${Type}[] = [];`,
        '  for (const item of items) {',
        `    if (item.${field} === undefined) continue;`,
        '    if (isWithin(period, item.date)) out.push(item);',
        '  }',
        '  return out;',
        '}',
      ]);
    case 1:
      return ts([
        `/** Groups ${noun}s by ${field}; insertion order of the first occurrence is kept. */`,
        `export function ${name}(items: readonly ${Type}[]): Map<string, ${Type}[]> {`,
        `  const groups = new Map<string, ${Type}[]>();`,
        '  for (const item of items) {',
        `    const key = String(item.${field} ?? '');`,
        '    const group = groups.get(key);',
        '    if (group) group.push(item);',
        '    else groups.set(key, [item]);',
        '  }',
        '  return groups;',
        '}',
      ]);
    case 2:
      return ts([
        `export function ${name}(text: string, line: number): Result<${Type}, Diagnostic> {`,
        '  const trimmed = text.trim();',
        '  if (trimmed.length === 0) {',
        `    return err({ line, column: 1, code: 'empty-${noun}', severity: 'error', message: \`Expected a ${noun} on line \${line}\` });`,
        '  }',
        `  const match = ${noun.toUpperCase()}_PATTERN.exec(trimmed);`,
        '  if (!match) {',
        `    return err({ line, column: 1, code: 'bad-${noun}', severity: 'error', message: \`Cannot read "\${trimmed}" as a ${noun}\` });`,
        '  }',
        `  return ok({ ${field}: match[1] ?? '', line } as ${Type});`,
        '}',
      ]);
    case 3:
      return ts([
        `/** Sum of the ${noun} amounts; all must share one currency (checked by the parser). */`,
        `export function ${name}(items: readonly ${Type}[]): Amount {`,
        "  const currency = items[0]?.amount?.currency ?? 'EUR';",
        '  let total = zeroAmount(currency);',
        '  for (const item of items) {',
        '    if (item.amount) total = addAmounts(total, item.amount);',
        '  }',
        '  return total;',
        '}',
      ]);
    case 4: {
      const keys = [rng.pick(FIELDS), rng.pick(NOUNS), rng.pick(VERBS)];
      return ts([
        `const ${name.toUpperCase()}_WIDTH: Record<string, number> = {`,
        ...keys.map((k, i) => `  ${k}: ${8 + 4 * i + rng.int(0, 6)},`),
        '};',
        '',
        `export function ${name}(rows: readonly string[][]): string[] {`,
        '  return rows.map((cells) =>',
        '    cells',
        `      .map((cell, i) => cell.padEnd(${name.toUpperCase()}_WIDTH[Object.keys(${name.toUpperCase()}_WIDTH)[i] ?? ''] ?? 10))`,
        "      .join('  ')",
        '      .trimEnd(),',
        '  );',
        '}',
      ]);
    }
    default:
      return ts([
        `export interface ${cap(verb)}${cap(noun)}Options {`,
        `  /** Skip ${noun}s without a ${field} instead of reporting them. */`,
        '  lenient?: boolean;',
        `  /** Maximum ${noun}s to keep; older ones are dropped first. */`,
        '  limit?: number;',
        '}',
        '',
        `export function ${name}(items: readonly ${Type}[], options: ${cap(verb)}${cap(noun)}Options = {}): ${Type}[] {`,
        `  const kept = options.lenient ? items.filter((item) => item.${field} !== undefined) : [...items];`,
        '  kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.line - b.line));',
        '  return options.limit === undefined ? kept : kept.slice(-options.limit);',
        '}',
      ]);
  }
}

const TEST_SUBJECTS = [
  'reads a posting with a negative amount',
  'keeps the line number of the payee line',
  'infers the missing amount of the last posting',
  'reports an unbalanced transaction',
  'recovers at the next date line after a bad amount',
  'accepts a tab between account and amount',
  'ignores comment lines inside a transaction',
  'parses tags after the payee',
  'rejects two postings without an amount',
  'handles a journal without a trailing newline',
  'formats JPY without decimals',
  'rounds half-even when converting',
  'groups by quarter',
  'aligns wide characters in the payee column',
  'prints --json output that round-trips',
  'exits 1 when the journal has errors',
] as const;

function tsTest(rng: Rng, n: number): string {
  const subject = `${rng.pick(TEST_SUBJECTS)}${n > TEST_SUBJECTS.length ? ` (${n})` : ''}`;
  const day = String(rng.int(1, 28)).padStart(2, '0');
  const amount = `${rng.int(3, 480)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
  return ts([
    `  it('${subject}', () => {`,
    '    const journal = parseJournal(',
    `      ['2026-02-${day} ${rng.pick(PAYEES)}', '  expenses:${rng.pick(CATEGORIES)}  ${amount} EUR', '  assets:checking'].join('\\n'),`,
    '    );',
    `    expect(journal.transactions).toHaveLength(1);`,
    `    expect(journal.transactions[0]?.postings[1]?.amount?.minor).toBe(-${amount.replace('.', '')}n);`,
    '    expect(journal.diagnostics).toEqual([]);',
    '  });',
  ]);
}

export const PAYEES = [
  'Corner Bakery',
  'City Transit',
  'Green Grocer',
  'Hardware Depot',
  'Riverside Pharmacy',
  'Bookshop Lumen',
  'Electric Co-op',
  'Noodle Bar Hikari',
  'Café Olá',
  'Swim Club',
] as const;
export const CATEGORIES = [
  'food:groceries',
  'food:eating-out',
  'transport',
  'home:utilities',
  'home:repairs',
  'health',
  'books',
  'sport',
] as const;

function journalEntry(rng: Rng, month: number): string {
  const day = String(rng.int(1, 28)).padStart(2, '0');
  const amount = `${rng.int(2, 260)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
  const tag = rng.chance(0.3) ? `  ; #${rng.pick(['weekly', 'shared', 'refund', 'gift'])}` : '';
  return ts([
    `2026-${String(month).padStart(2, '0')}-${day} ${rng.pick(PAYEES)}${tag}`,
    `    expenses:${rng.pick(CATEGORIES)}    ${amount} EUR`,
    '    assets:checking',
    '',
  ]);
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The content of `path` at `revision`. Deterministic in (seed, path, revision) only, so the
 * order in which the story touches files does not change their text.
 */
export function synthesizeFile(seed: number, spec: FileSpec, revision: number, scale: number): string {
  const rng = createRng(seed ^ hashString(`${spec.path}@${revision}`));
  const target = Math.round(spec.bodyLines * scale * (0.66 + Math.min(revision, 8) * 0.1));
  const parts: string[] = [spec.head];
  let lines = 0;
  const used = new Set<string>();
  if (spec.kind === 'ts') {
    while (lines < target) {
      const fn = tsFunction(rng, used);
      parts.push('', fn);
      lines += fn.split('\n').length + 1;
    }
  } else if (spec.kind === 'test') {
    let n = 0;
    while (lines < target) {
      const t = tsTest(rng, ++n);
      parts.push(n === 1 ? t : `\n${t}`);
      lines += 9;
    }
    parts.push('});');
  } else if (spec.kind === 'journal') {
    while (lines < target) {
      parts.push(journalEntry(rng, 1 + Math.floor((lines / Math.max(1, target)) * 3)));
      lines += 4;
    }
  } else if (spec.kind === 'md') {
    while (lines < target) {
      parts.push(
        `- \`${rng.pick(['balance', 'report', 'export', 'check'])} --${rng.pick(['by', 'at', 'format', 'json', 'quiet'])}\`: ${rng.pick(['see the example above', 'accepted by every command', 'added in 0.3', 'prints machine-readable output'])}`,
      );
      lines += 1;
    }
  }
  return `${parts.join('\n')}\n`;
}

/** Test-case count of a test file's content (what `vitest` would report for it). */
export function countTests(content: string): number {
  let n = 0;
  for (let i = content.indexOf("  it('"); i >= 0; i = content.indexOf("  it('", i + 1)) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Tool outputs.

/** Read's `cat -n` rendering as 2.1.x writes it: right-aligned number, `→`, the line. */
export function formatNumbered(content: string, startLine = 1): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) out += '\n';
    out += `${String(startLine + i).padStart(6)}→${lines[i]}`;
  }
  return out;
}

export interface TestFailure {
  file: string;
  name: string;
  expected: string;
  received: string;
  atLine: number;
}

export function formatVitestRun(
  counts: ReadonlyMap<string, number>,
  failures: TestFailure[],
  rng: Rng,
): string {
  const out: string[] = ['', ` RUN  v3.2.4 ${PROJECT_CWD}`, ''];
  let passed = 0;
  for (const [file, n] of counts) {
    const failed = failures.filter((f) => f.file === file);
    const ms = rng.int(3, 40);
    if (failed.length === 0) {
      out.push(` ✓ ${file} (${n} tests) ${ms}ms`);
    } else {
      out.push(` ❯ ${file} (${n} tests | ${failed.length} failed) ${ms}ms`);
      for (const f of failed)
        out.push(`   × ${f.name} ${rng.int(1, 9)}ms`, `     → expected ${f.expected} to equal ${f.received}`);
    }
    passed += n - failed.length;
  }
  if (failures.length > 0) {
    out.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failures.length} ⎯⎯⎯⎯⎯⎯⎯`, '');
    for (const f of failures) {
      out.push(
        ` FAIL  ${f.file} > ${f.name}`,
        `AssertionError: expected ${f.received} to deeply equal ${f.expected}`,
        '',
        '- Expected',
        '+ Received',
        '',
        `- ${f.expected}`,
        `+ ${f.received}`,
        '',
        ` ❯ ${f.file}:${f.atLine}:${rng.int(10, 40)}`,
        `    ${f.atLine - 1}|     const journal = parseJournal(text);`,
        `    ${f.atLine}|     expect(journal.transactions).toEqual(expected);`,
        '       |                                  ^',
        '',
        `⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/${failures.length}]⎯`,
        '',
      );
    }
  }
  const files = counts.size;
  const failedFiles = new Set(failures.map((f) => f.file)).size;
  out.push(
    '',
    ` Test Files  ${failedFiles > 0 ? `${failedFiles} failed | ` : ''}${files - failedFiles} passed (${files})`,
    `      Tests  ${failures.length > 0 ? `${failures.length} failed | ` : ''}${passed} passed (${passed + failures.length})`,
    `   Start at  ${String(rng.int(9, 17)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`,
    `   Duration  ${rng.int(380, 1900)}ms (transform ${rng.int(80, 300)}ms, setup 0ms, collect ${rng.int(150, 500)}ms, tests ${rng.int(20, 200)}ms, environment 0ms, prepare ${rng.int(200, 600)}ms)`,
    '',
  );
  return out.join('\n');
}

/** `tally report` output for the household fixture (plain-text table). */
export function formatReport(rng: Rng, by: 'month' | 'quarter'): string {
  const rows =
    by === 'month' ? ['2026-01', '2026-02', '2026-03'] : ['2025-Q3', '2025-Q4', '2026-Q1'].map((q) => q);
  const lines = ['Period     Income     Expenses        Net', '---------  ---------  ----------  ---------'];
  for (const row of rows) {
    const income = rng.int(280_000, 340_000);
    const expenses = rng.int(180_000, 290_000);
    const f = (minor: number): string =>
      (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    lines.push(
      `${row.padEnd(9)}  ${f(income).padStart(9)}  ${`-${f(expenses)}`.padStart(10)}  ${f(income - expenses).padStart(9)}`,
    );
  }
  return lines.join('\n');
}

/** CSV lines of `tally export` over the large benchmark journal (for the persisted-output stub). */
export function formatExportCsv(rng: Rng, rows: number): string {
  const out = ['date,payee,account,amount,currency,line'];
  for (let i = 0; i < rows; i++) {
    const month = String(1 + (i % 12)).padStart(2, '0');
    const day = String(1 + (i % 28)).padStart(2, '0');
    out.push(
      `2025-${month}-${day},${rng.pick(PAYEES)},expenses:${rng.pick(CATEGORIES)},${rng.int(2, 260)}.${String(rng.int(0, 99)).padStart(2, '0')},EUR,${3 + i * 4}`,
    );
  }
  return out.join('\n');
}
