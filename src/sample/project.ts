// The made-up project the sample session works on: `tally`, a small TypeScript CLI that reads
// plain-text expense journals and prints balances and monthly reports. File contents and tool
// outputs are synthesized from templates so that Read, Grep, Edit and test runs agree with
// each other (a Grep hit is a line of the file as last written).

import { createRng, type Rng } from './prng';

export const PROJECT_NAME = 'tally';
export const PROJECT_CWD = '/home/mira/code/tally';
/** `<encoded-cwd>` of docs/sources.md#fmt-files: `/` and `.` become `-`. */
export const PROJECT_DIR = '/home/mira/.claude/projects/-home-mira-code-tally';

export type FileKind = 'ts' | 'test' | 'json' | 'md' | 'journal';

export interface FileSpec {
  path: string;
  kind: FileKind;
  /** Lines of synthesized body at scale 1 (headers and hand-written parts come on top). */
  bodyLines: number;
  /** What the file is for, as the compaction summary describes it. */
  purpose: string;
  /** Hand-written opening of the file. */
  head: string;
}

const ts = (lines: string[]): string => lines.join('\n');

export const FILES: readonly FileSpec[] = [
  {
    path: 'package.json',
    kind: 'json',
    bodyLines: 0,
    purpose:
      'package manifest: bin entry `tally`, scripts build/test/lint, vitest and typescript as dev dependencies',
    head: ts([
      '{',
      '  "name": "tally",',
      '  "version": "0.3.0",',
      '  "description": "Balances and monthly reports from plain-text expense journals",',
      '  "type": "module",',
      '  "bin": { "tally": "dist/cli.js" },',
      '  "scripts": {',
      '    "build": "tsc -p tsconfig.json",',
      '    "test": "vitest run",',
      '    "lint": "biome check src tests",',
      '    "bench": "node dist/cli.js report fixtures/big.journal --quiet"',
      '  },',
      '  "devDependencies": {',
      '    "@biomejs/biome": "^2.1.0",',
      '    "@types/node": "^22.10.0",',
      '    "typescript": "^5.8.3",',
      '    "vitest": "^3.2.4"',
      '  }',
      '}',
    ]),
  },
  {
    path: 'tsconfig.json',
    kind: 'json',
    bodyLines: 0,
    purpose: 'strict TypeScript config, NodeNext modules, output in dist/',
    head: ts([
      '{',
      '  "compilerOptions": {',
      '    "target": "ES2022",',
      '    "module": "NodeNext",',
      '    "moduleResolution": "NodeNext",',
      '    "strict": true,',
      '    "noUncheckedIndexedAccess": true,',
      '    "outDir": "dist",',
      '    "rootDir": "src",',
      '    "declaration": false,',
      '    "sourceMap": true',
      '  },',
      '  "include": ["src"]',
      '}',
    ]),
  },
  {
    path: 'src/cli.ts',
    kind: 'ts',
    bodyLines: 90,
    purpose: 'entry point: argument parsing with node:util parseArgs, dispatch to the commands, exit codes',
    head: ts([
      '#!/usr/bin/env node',
      "import { parseArgs } from 'node:util';",
      "import { readFile } from 'node:fs/promises';",
      "import { runBalance } from './commands/balance.js';",
      "import { runReport } from './commands/report.js';",
      "import { runExport } from './commands/export.js';",
      "import { runCheck } from './commands/check.js';",
      "import { parseJournal } from './journal/parser.js';",
      '',
      'const USAGE = `tally <command> <journal> [options]',
      '',
      'Commands:',
      '  balance   account balances at the end of the journal (or --at <date>)',
      '  report    income and expenses per period (--by month|quarter|year)',
      '  export    postings as CSV or JSON (--format csv|json)',
      '  check     parse only; print diagnostics and exit 1 on errors`;',
      '',
      '/** Exit codes: 0 ok, 1 journal has errors, 2 usage error. */',
      'export async function main(argv: string[]): Promise<number> {',
      '  const { values, positionals } = parseArgs({',
      '    args: argv,',
      '    allowPositionals: true,',
      '    options: {',
      "      by: { type: 'string', default: 'month' },",
      "      at: { type: 'string' },",
      "      format: { type: 'string', default: 'csv' },",
      "      json: { type: 'boolean', default: false },",
      "      quiet: { type: 'boolean', default: false },",
      '    },',
      '  });',
      '  const [command, file] = positionals;',
      '  if (!command || !file) {',
      `    process.stderr.write(\`\${USAGE}\\n\`);`,
      '    return 2;',
      '  }',
      "  const journal = parseJournal(await readFile(file, 'utf8'), { fileName: file });",
    ]),
  },
  {
    path: 'src/journal/ast.ts',
    kind: 'ts',
    bodyLines: 60,
    purpose: 'journal data model: Transaction, Posting, Directive, Diagnostic with line numbers',
    head: ts([
      "import type { Amount } from '../money/amount.js';",
      '',
      '/** A dated transaction: a payee line followed by two or more indented postings. */',
      'export interface Transaction {',
      '  date: string;',
      '  payee: string;',
      '  /** 1-based line of the payee line in the journal. */',
      '  line: number;',
      '  postings: Posting[];',
      '  tags: string[];',
      '}',
      '',
      'export interface Posting {',
      '  account: string;',
      '  /** Absent on the one posting per transaction whose amount is inferred. */',
      '  amount?: Amount;',
      '  line: number;',
      '}',
      '',
      "export type Severity = 'error' | 'warning';",
      '',
      'export interface Diagnostic {',
      '  line: number;',
      '  column: number;',
      '  code: string;',
      '  severity: Severity;',
      '  message: string;',
      '}',
    ]),
  },
  {
    path: 'src/journal/lexer.ts',
    kind: 'ts',
    bodyLines: 150,
    purpose:
      'line-based lexer: classifies lines (date header, posting, comment, directive) and splits tokens',
    head: ts([
      "import type { Diagnostic } from './ast.js';",
      '',
      "export type TokenKind = 'date' | 'payee' | 'account' | 'amount' | 'tag' | 'comment' | 'directive';",
      '',
      'export interface Token {',
      '  kind: TokenKind;',
      '  text: string;',
      '  line: number;',
      '  column: number;',
      '}',
      '',
      'const DATE = /^(\\d{4})-(\\d{2})-(\\d{2})\\b/;',
      '/** Two or more spaces (or a tab) separate an account from its amount, as in ledger. */',
      'const SEPARATOR = /\\s{2,}|\\t/;',
      '',
      'export function tokenizeLine(text: string, line: number, diagnostics: Diagnostic[]): Token[] {',
      '  const tokens: Token[] = [];',
      "  if (text.trimStart().startsWith(';')) {",
      "    tokens.push({ kind: 'comment', text: text.trim(), line, column: 1 });",
      '    return tokens;',
      '  }',
    ]),
  },
  {
    path: 'src/journal/parser.ts',
    kind: 'ts',
    bodyLines: 210,
    purpose:
      'recursive parser over lexer tokens, builds transactions, balances inferred postings, collects diagnostics and recovers at the next date line',
    head: ts([
      "import type { Diagnostic, Posting, Transaction } from './ast.js';",
      "import { tokenizeLine, type Token } from './lexer.js';",
      "import { addAmounts, isZero, negate, parseAmount, type Amount } from '../money/amount.js';",
      '',
      'export interface ParseOptions {',
      '  fileName?: string;',
      '  /** Stop after this many errors; the rest of the file is skipped. */',
      '  maxErrors?: number;',
      '}',
      '',
      'export interface Journal {',
      '  transactions: Transaction[];',
      '  diagnostics: Diagnostic[];',
      '}',
      '',
      'export function parseJournal(text: string, options: ParseOptions = {}): Journal {',
      '  const diagnostics: Diagnostic[] = [];',
      '  const transactions: Transaction[] = [];',
      '  const lines = text.split(/\\r?\\n/);',
      '  let current: Transaction | undefined;',
      '  for (let i = 0; i < lines.length; i++) {',
      '    const tokens = tokenizeLine(lines[i] ?? "", i + 1, diagnostics);',
      '    if (tokens.length === 0) continue;',
    ]),
  },
  {
    path: 'src/journal/errors.ts',
    kind: 'ts',
    bodyLines: 40,
    purpose: 'diagnostic codes, messages and the pretty printer with a caret under the column',
    head: ts([
      "import type { Diagnostic } from './ast.js';",
      '',
      'export const CODES = {',
      "  badDate: 'bad-date',",
      "  badAmount: 'bad-amount',",
      "  unbalanced: 'unbalanced',",
      "  twoInferred: 'two-inferred-amounts',",
      "  orphanPosting: 'posting-without-transaction',",
      '} as const;',
    ]),
  },
  {
    path: 'src/money/amount.ts',
    kind: 'ts',
    bodyLines: 110,
    purpose:
      'Amount as integer minor units plus currency; parse "1.234,56 EUR" / "-$12.30", add, negate, format',
    head: ts([
      '/** Money as an integer count of minor units (cents), never a float. */',
      'export interface Amount {',
      '  minor: bigint;',
      '  currency: string;',
      '  /** Digits after the decimal point for this currency (2 for EUR/USD, 0 for JPY). */',
      '  scale: number;',
      '}',
      '',
      "const SYMBOLS: Record<string, string> = { '$': 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };",
      '',
      'export function zeroAmount(currency: string, scale = 2): Amount {',
      '  return { minor: 0n, currency, scale };',
      '}',
    ]),
  },
  {
    path: 'src/money/currency.ts',
    kind: 'ts',
    bodyLines: 50,
    purpose: 'currency table (scale, symbol, grouping) and Intl.NumberFormat-based formatting',
    head: ts([
      'export interface CurrencyInfo {',
      '  code: string;',
      '  symbol: string;',
      '  scale: number;',
      '}',
      '',
      'export const CURRENCIES: readonly CurrencyInfo[] = [',
      "  { code: 'EUR', symbol: '€', scale: 2 },",
      "  { code: 'USD', symbol: '$', scale: 2 },",
      "  { code: 'GBP', symbol: '£', scale: 2 },",
      "  { code: 'JPY', symbol: '¥', scale: 0 },",
      '];',
    ]),
  },
  {
    path: 'src/dates/period.ts',
    kind: 'ts',
    bodyLines: 70,
    purpose: 'period keys (2026-03, 2026-Q1, 2026) and range checks on ISO dates without time zones',
    head: ts([
      "export type Granularity = 'month' | 'quarter' | 'year';",
      '',
      '/** A period key such as `2026-03`, `2026-Q1` or `2026`. Dates are compared as strings. */',
      'export function periodKey(date: string, by: Granularity): string {',
      '  const year = date.slice(0, 4);',
      "  if (by === 'year') return year;",
      '  const month = Number(date.slice(5, 7));',
      `  if (by === 'quarter') return \`\${year}-Q\${Math.ceil(month / 3)}\`;`,
      '  return date.slice(0, 7);',
      '}',
    ]),
  },
  {
    path: 'src/report/table.ts',
    kind: 'ts',
    bodyLines: 90,
    purpose: 'plain-text table renderer: column widths by display width, right-aligned amounts',
    head: ts([
      'export interface Column {',
      '  title: string;',
      "  align: 'left' | 'right';",
      '}',
      '',
      '/** Display width of a cell; East Asian wide characters take two columns. */',
      'export function displayWidth(text: string): number {',
      '  let width = 0;',
      '  for (const ch of text) width += isWide(ch.codePointAt(0) ?? 0) ? 2 : 1;',
      '  return width;',
      '}',
    ]),
  },
  {
    path: 'src/commands/balance.ts',
    kind: 'ts',
    bodyLines: 60,
    purpose: '`tally balance`: sums postings per account up to --at, prints a tree of accounts',
    head: ts([
      "import type { Journal } from '../journal/parser.js';",
      "import { addAmounts, formatAmount, type Amount } from '../money/amount.js';",
      "import { renderTable } from '../report/table.js';",
      '',
      'export interface BalanceOptions {',
      '  at?: string;',
      '  json: boolean;',
      '}',
    ]),
  },
  {
    path: 'src/commands/report.ts',
    kind: 'ts',
    bodyLines: 80,
    purpose: '`tally report`: income, expenses and net per period, with --by month|quarter|year',
    head: ts([
      "import type { Journal } from '../journal/parser.js';",
      "import { periodKey, type Granularity } from '../dates/period.js';",
      "import { renderTable, type Column } from '../report/table.js';",
      '',
      'const COLUMNS: Column[] = [',
      "  { title: 'Period', align: 'left' },",
      "  { title: 'Income', align: 'right' },",
      "  { title: 'Expenses', align: 'right' },",
      "  { title: 'Net', align: 'right' },",
      '];',
    ]),
  },
  {
    path: 'src/commands/export.ts',
    kind: 'ts',
    bodyLines: 50,
    purpose: '`tally export`: postings as CSV (RFC 4180 quoting) or JSON lines',
    head: ts([
      "import type { Journal } from '../journal/parser.js';",
      "import { formatPlain } from '../money/amount.js';",
      '',
      '/** RFC 4180: quote fields holding a comma, quote or newline; double inner quotes. */',
      'export function csvField(value: string): string {',
      `  return /[",\\n]/.test(value) ? \`"\${value.replaceAll('"', '""')}"\` : value;`,
      '}',
    ]),
  },
  {
    path: 'src/commands/check.ts',
    kind: 'ts',
    bodyLines: 30,
    purpose: '`tally check`: parse only, print diagnostics with file:line:column, exit 1 on errors',
    head: ts([
      "import type { Journal } from '../journal/parser.js';",
      "import { formatDiagnostic } from '../journal/errors.js';",
    ]),
  },
  {
    path: 'tests/lexer.test.ts',
    kind: 'test',
    bodyLines: 45,
    purpose: 'lexer tests: separators, comments, tags, tabs',
    head: ts([
      "import { describe, expect, it } from 'vitest';",
      "import { tokenizeLine } from '../src/journal/lexer.js';",
      '',
      "describe('tokenizeLine', () => {",
    ]),
  },
  {
    path: 'tests/parser.test.ts',
    kind: 'test',
    bodyLines: 70,
    purpose: 'parser tests: inferred postings, unbalanced transactions, error recovery',
    head: ts([
      "import { describe, expect, it } from 'vitest';",
      "import { parseJournal } from '../src/journal/parser.js';",
      '',
      "describe('parseJournal', () => {",
    ]),
  },
  {
    path: 'tests/amount.test.ts',
    kind: 'test',
    bodyLines: 40,
    purpose: 'money tests: parsing formats, rounding, currencies with scale 0',
    head: ts([
      "import { describe, expect, it } from 'vitest';",
      "import { parseAmount, addAmounts, formatAmount } from '../src/money/amount.js';",
      '',
      "describe('amount', () => {",
    ]),
  },
  {
    path: 'tests/report.test.ts',
    kind: 'test',
    bodyLines: 35,
    purpose: 'report and table tests: period grouping, column alignment with wide characters',
    head: ts([
      "import { describe, expect, it } from 'vitest';",
      "import { runReport } from '../src/commands/report.js';",
      "import { parseJournal } from '../src/journal/parser.js';",
      '',
      "describe('report', () => {",
    ]),
  },
  {
    path: 'tests/cli.test.ts',
    kind: 'test',
    bodyLines: 30,
    purpose: 'end-to-end tests of the built CLI: exit codes, --json output',
    head: ts([
      "import { describe, expect, it } from 'vitest';",
      "import { main } from '../src/cli.js';",
      '',
      "describe('cli', () => {",
    ]),
  },
  {
    path: 'fixtures/household.journal',
    kind: 'journal',
    bodyLines: 120,
    purpose: 'sample journal with three months of household postings in EUR',
    head: ts(['; household.journal: sample data for tests and the README', '; currency: EUR', '']),
  },
  {
    path: 'README.md',
    kind: 'md',
    bodyLines: 40,
    purpose: 'usage, journal syntax, examples of each command',
    head: ts([
      '# tally',
      '',
      'Balances and monthly reports from plain-text expense journals.',
      '',
      '```',
      'npx tally report household.journal --by month',
      '```',
      '',
      '## Journal syntax',
      '',
    ]),
  },
];

export function getFileSpec(path: string): FileSpec {
  const spec = FILES.find((f) => f.path === path);
  if (!spec) throw new Error(`sample project has no file ${path}`);
  return spec;
}

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
