// What the simulated developer asks for, prompt by prompt, while building `tally`. Each prompt
// names the files the work touches and, where the session should show something particular
// (a pasted image, a subagent, a rejected edit, a retried API call), a `special` marker.
// `generate-session.ts` turns a prompt into API calls and tool results.

import { CATEGORIES, PAYEES } from './project';
import type { Rng } from './prng';

export type Special =
  | 'image'
  | 'task'
  | 'webfetch'
  | 'multiedit'
  | 'persisted'
  | 'reject'
  | 'api-error'
  | 'break'
  | 'queue'
  | 'branch'
  | 'edit-miss'
  | 'commit'
  | 'unknown-record'
  /** The user runs `/compact focus on the parser` before this prompt (once micro- and auto compaction happened). */
  | 'manual-compact';

export interface PromptSpec {
  text: string;
  /** One line for the compaction summary's "Primary Request and Intent". */
  intent: string;
  creates?: string[];
  edits?: string[];
  reads?: string[];
  /** The test file this work adds cases to (created if absent). */
  test?: string;
  /** A test that fails on the first run and passes after a fix. */
  failFirst?: { name: string; expected: string; received: string; fix: string };
  concepts: string[];
  special?: Special[];
  /** How the assistant frames the work (first thinking block). */
  plan: string;
  /** The assistant's closing message. */
  done: string;
  todos?: string[];
}

export const STORY: readonly PromptSpec[] = [
  {
    text: 'I want to build a small CLI called tally that reads plain-text expense journals (ledger-like: a date line with a payee, then indented postings) and prints balances and monthly reports. TypeScript, Node 22, vitest for tests, no runtime dependencies. Start with package.json, tsconfig and a skeleton src/cli.ts.',
    intent:
      'Build `tally`, a dependency-free TypeScript CLI (Node 22, vitest) for ledger-like plain-text expense journals',
    creates: ['package.json', 'tsconfig.json', 'src/cli.ts'],
    concepts: ['Node 22 ESM with NodeNext module resolution', 'node:util parseArgs for argument parsing'],
    plan: 'Fresh repository. The user wants no runtime dependencies, so argument parsing has to come from node:util parseArgs rather than commander or yargs. ESM with NodeNext resolution means relative imports need the .js suffix even from .ts files; I should set that up from the start so it does not bite later. Order: package.json with the bin entry, a strict tsconfig (noUncheckedIndexedAccess is worth it for a parser full of array indexing), then a cli.ts that only dispatches.',
    done: 'The skeleton is in place:\n\n- `package.json` with a `tally` bin entry and `build`, `test`, `lint` scripts\n- `tsconfig.json`: strict, `noUncheckedIndexedAccess`, NodeNext modules, output in `dist/`\n- `src/cli.ts`: `parseArgs`-based dispatch for `balance`, `report`, `export` and `check` (the commands themselves are stubs for now)\n\nExit codes are 0 (ok), 1 (journal has errors) and 2 (usage error). Next step would be the journal data model and the lexer.',
    todos: [
      'Create package.json and tsconfig.json',
      'Write the src/cli.ts skeleton',
      'Install dev dependencies',
    ],
  },
  {
    text: 'Now the journal format. A transaction is a line `2026-03-01 Corner Bakery` followed by indented postings like `expenses:food  4.20 EUR` (two or more spaces between account and amount). Comments start with `;`. Write the AST types and a line lexer, with tests.',
    intent:
      'Define the journal AST and a line lexer (date/payee lines, indented postings separated by 2+ spaces, `;` comments)',
    creates: ['src/journal/ast.ts', 'src/journal/lexer.ts'],
    test: 'tests/lexer.test.ts',
    concepts: [
      'ledger-style journal syntax: two or more spaces separate account and amount',
      'line-based lexing with 1-based line and column numbers',
    ],
    plan: 'The separator rule is the interesting part: account names can contain single spaces ("expenses:eating out"), so only a run of two or more spaces or a tab ends the account. The lexer should work line by line and keep 1-based line and column numbers on every token, because diagnostics will need them later. I will keep the AST small: Transaction with postings, Posting with an optional amount (the inferred one).',
    done: 'Added the data model and the lexer:\n\n- `src/journal/ast.ts`: `Transaction`, `Posting` (amount optional for the inferred posting), `Diagnostic` with line/column/code/severity\n- `src/journal/lexer.ts`: `tokenizeLine()` classifies comment, date/payee, posting and directive lines; a run of 2+ spaces or a tab separates account and amount\n- `tests/lexer.test.ts`: separators, tabs, comments, tags after the payee\n\nAll lexer tests pass.',
    todos: ['Write AST types', 'Write tokenizeLine()', 'Add lexer tests', 'Run the tests'],
  },
  {
    text: 'Amounts must never be floats. Add src/money/amount.ts with integer minor units; it should accept `12.30 EUR`, `-€12.30` and the German style `1.234,56 EUR`. Check what Intl.NumberFormat gives us for currency digits before hard-coding a table.',
    intent: 'Represent money as integer minor units; parse `12.30 EUR`, `-€12.30` and `1.234,56 EUR`',
    creates: ['src/money/amount.ts'],
    test: 'tests/amount.test.ts',
    concepts: [
      'money as bigint minor units, never floats',
      'ISO 4217 minor-unit digits via Intl.NumberFormat resolvedOptions()',
    ],
    special: ['webfetch'],
    plan: 'Integer minor units as bigint: a journal with years of postings can exceed 2^53 cents only in silly cases, but bigint also makes accidental float arithmetic a type error, which is the real win. The ambiguous part is the German format: in "1.234,56" the dot is a thousands separator. Rule: if both separators occur, the last one is the decimal mark; if only a comma occurs followed by exactly two digits, it is decimal. Let me check the MDN page on resolvedOptions for the minimum fraction digits per currency first, as the user asked.',
    done: 'Money is now `Amount { minor: bigint, currency, scale }`:\n\n- `parseAmount()` accepts `12.30 EUR`, `-€12.30`, `€-12.30` and `1.234,56 EUR` (when both separators appear, the last one is the decimal mark)\n- the scale per currency comes from `Intl.NumberFormat(…).resolvedOptions().minimumFractionDigits`, so JPY gets 0 without a hand-written table\n- `addAmounts()` throws on mixed currencies; the parser will turn that into a diagnostic\n\n22 amount tests pass.',
  },
  {
    text: 'Write the parser on top of the lexer. One posting per transaction may omit its amount; infer it so the transaction balances. Two postings without an amount is an error.',
    intent:
      'Parser that builds transactions and infers the single missing posting amount; two missing amounts is an error',
    creates: ['src/journal/parser.ts'],
    test: 'tests/parser.test.ts',
    failFirst: {
      name: 'parseJournal > infers the missing amount of the last posting',
      expected: '-1230n',
      received: 'undefined',
      fix: 'the inferred amount was computed but only assigned when the posting was not the last one; moved the balancing step after the loop over postings',
    },
    concepts: [
      'inferred (elided) posting amounts balance the transaction',
      'diagnostics collected instead of thrown',
    ],
    plan: 'The parser consumes token lines: a date line opens a transaction, indented posting lines attach to it, anything else closes it. Balancing happens when the transaction closes: sum the explicit amounts per currency; if exactly one posting lacks an amount, it gets the negated sum; if more than one lacks it, report two-inferred-amounts. Diagnostics go into an array instead of exceptions so one bad line does not lose the whole file.',
    done: 'The parser is in `src/journal/parser.ts`:\n\n- a date line opens a transaction, indented lines add postings, the transaction is closed at the next date line or the end of the file\n- on close, a single posting without an amount gets the negated sum; two such postings produce a `two-inferred-amounts` diagnostic\n- errors are collected in `journal.diagnostics`, never thrown\n\nThe first test run caught a bug (the inferred amount was never set on the last posting); fixed, and all parser tests pass now.',
    todos: ['Write parseJournal()', 'Balance inferred postings', 'Add parser tests', 'Run tests'],
  },
  {
    text: 'Errors should carry line and column, and the parser must keep going after a bad line: skip to the next date line and continue. Put the diagnostic codes in one place.',
    intent: 'Diagnostics with line/column and error recovery at the next date line; central diagnostic codes',
    creates: ['src/journal/errors.ts'],
    edits: ['src/journal/parser.ts', 'src/journal/lexer.ts'],
    test: 'tests/parser.test.ts',
    concepts: [
      'panic-mode error recovery: resynchronise at the next date line',
      'diagnostic codes as a const object',
    ],
    special: ['edit-miss'],
    plan: 'Panic-mode recovery fits this format well: a date line at column 1 is an unambiguous synchronisation point. When a posting line fails, mark the current transaction as broken, record the diagnostic, and ignore lines until the next date line. A broken transaction should not be balanced or reported, otherwise one typo produces a second, confusing "unbalanced" error.',
    done: 'Error handling:\n\n- `src/journal/errors.ts` holds the codes (`bad-date`, `bad-amount`, `unbalanced`, `two-inferred-amounts`, `posting-without-transaction`) and `formatDiagnostic()`, which prints the line with a caret under the column\n- after an error the parser skips to the next date line; the broken transaction is dropped, so there is no follow-up "unbalanced" error\n- every diagnostic has a 1-based line and column',
  },
  {
    text: 'Implement `tally balance`: sum postings per account up to an optional --at date and print them as an indented account tree.',
    intent: '`tally balance` with --at and an indented account tree',
    creates: ['src/commands/balance.ts'],
    edits: ['src/cli.ts'],
    reads: ['src/journal/ast.ts'],
    test: 'tests/report.test.ts',
    concepts: ['account tree built from colon-separated account names'],
    plan: 'Accounts are colon-separated paths, so the tree falls out of splitting on ":" and summing children into parents. Balances must be per currency since a journal may mix EUR and USD; for now print one line per (account, currency). --at compares ISO date strings, no Date objects needed.',
    done: '`tally balance` works:\n\n```\nassets:checking          -1,284.55 EUR\nexpenses                  1,284.55 EUR\n  food                      612.40 EUR\n    groceries               498.10 EUR\n    eating-out              114.30 EUR\n  transport                 233.00 EUR\n```\n\nParents include their children; `--at 2026-02-28` cuts off later transactions by comparing ISO date strings.',
  },
  {
    text: 'Now `tally report`: income, expenses and net per month. Add src/dates/period.ts for the period keys; keep dates as strings, no time zones.',
    intent: '`tally report` with income/expenses/net per month; period keys in src/dates/period.ts',
    creates: ['src/dates/period.ts', 'src/commands/report.ts', 'src/report/table.ts'],
    edits: ['src/cli.ts'],
    test: 'tests/report.test.ts',
    concepts: [
      'ISO dates compared as strings to avoid time-zone bugs',
      'period keys 2026-03 / 2026-Q1 / 2026',
    ],
    plan: 'Keeping dates as strings avoids the classic off-by-one-day bug when a Date is created at local midnight and printed in UTC. periodKey() only needs slicing. The report needs a table renderer; right-align amounts, left-align labels.',
    done: 'Added `tally report`:\n\n- `periodKey()` maps an ISO date to `2026-03` (month), `2026-Q1` (quarter) or `2026` (year) by slicing, never via `Date`\n- `src/report/table.ts` renders aligned plain-text tables\n- income is any `income:*` posting (sign flipped), expenses any `expenses:*` posting',
  },
  {
    text: "Before we add export, I'd like an overview of how diagnostics flow from the lexer through the parser to the CLI output. Use an agent for the exploration so we don't fill up this context.",
    intent: 'Overview of the diagnostics flow from lexer to CLI (done with an Explore subagent)',
    concepts: ['subagent (Task/Explore) for read-only exploration outside the main context'],
    special: ['task'],
    plan: 'An Explore subagent can read the lexer, parser, errors module and cli.ts and report back; only its final report lands in this context.',
    done: "Summary of the agent's findings:\n\n1. `tokenizeLine()` pushes lexical problems (bad date, unterminated amount) directly into the shared `diagnostics` array it is given.\n2. `parseJournal()` owns that array, adds structural problems (unbalanced, two inferred amounts, orphan postings) and returns it with the transactions.\n3. `src/cli.ts` prints diagnostics with `formatDiagnostic()` for every command, but only `check` turns errors into exit code 1. `report` and `balance` still print results from a partially parsed journal.\n\nThe inconsistency in (3) is worth fixing when we add `check`.",
  },
  {
    text: 'Add `tally export` with --format csv|json. CSV must quote properly. Also rename `formatAmount` to `formatPlain` where it is used for machine output.',
    intent:
      '`tally export` (CSV with RFC 4180 quoting, JSON lines); rename formatAmount → formatPlain for machine output',
    creates: ['src/commands/export.ts'],
    edits: ['src/money/amount.ts', 'src/cli.ts'],
    test: 'tests/report.test.ts',
    concepts: ['RFC 4180 CSV quoting', 'JSON Lines output for machine consumers'],
    special: ['multiedit'],
    plan: 'RFC 4180: a field containing a comma, a double quote or a newline gets quoted and inner quotes doubled. Payees like "Café Olá, Lisbon" will hit that. For JSON, one object per line (JSON Lines) streams better than one big array. The rename touches several call sites in amount.ts, a MultiEdit is the cleanest.',
    done: '`tally export` is done:\n\n- `--format csv` (default): RFC 4180 quoting via `csvField()`\n- `--format json`: one JSON object per posting per line\n- `formatAmount` for machine output is now `formatPlain` (no grouping separators, `.` as decimal mark); the human `formatAmount` stays for tables',
  },
  {
    text: 'Implement `tally check` and make exit codes consistent: every command should exit 1 if the journal has errors, after printing what it can. Add CLI tests.',
    intent: '`tally check` and consistent exit codes (1 on journal errors for every command); CLI tests',
    creates: ['src/commands/check.ts'],
    edits: ['src/cli.ts'],
    test: 'tests/cli.test.ts',
    concepts: ['exit codes: 0 ok, 1 journal errors, 2 usage'],
    plan: 'The agent found that only check returns 1 on errors. Simplest consistent rule: main() prints diagnostics first for every command, then runs the command, and returns 1 if any diagnostic has severity error. Warnings never change the exit code.',
    done: '`tally check` prints `file:line:column: error code: message` for each diagnostic and exits 1 on errors. All commands now share that rule: diagnostics go to stderr first, the command still prints what it can, and the exit code is 1 when any error was found. CLI tests cover the three exit codes.',
  },
  {
    text: 'Run the whole test suite and the type checker, and fix anything that fails.',
    intent: 'Run tests and tsc; fix failures',
    edits: ['src/journal/lexer.ts', 'src/commands/balance.ts'],
    test: 'tests/lexer.test.ts',
    failFirst: {
      name: 'tokenizeLine > accepts a tab between account and amount',
      expected: '"assets:checking"',
      received: '"assets:checking\\t-20.00 EUR"',
      fix: 'SEPARATOR was applied after trimming, which removed the tab in front of the amount; split first, then trim each part',
    },
    concepts: ['noUncheckedIndexedAccess surfaces undefined array reads at compile time'],
    plan: 'Full run: vitest, then tsc --noEmit. With noUncheckedIndexedAccess I expect a few "possibly undefined" errors where the code indexes arrays.',
    done: 'All green now: 5 test files pass and `tsc --noEmit` is clean. Fixed a lexer bug (a tab before the amount was trimmed away before splitting) and two `possibly undefined` index reads in `balance.ts`.',
  },
  {
    text: 'Commit what we have on a new branch feat/reports, with a sensible message.',
    intent: 'Commit the work on a new branch feat/reports',
    concepts: [],
    special: ['branch', 'commit'],
    plan: 'git status first to make sure nothing unexpected (dist/, node_modules) is staged; .gitignore should cover them.',
    done: 'Committed on `feat/reports`: `feat: journal parser, balance/report/export/check commands` (17 files). `dist/` and `node_modules/` are ignored.',
  },
  {
    text: 'JPY has no minor units. Make sure amounts in JPY parse and format without decimals, and add the currency table in src/money/currency.ts for symbols.',
    intent: 'JPY (scale 0) parsing/formatting; currency table with symbols',
    creates: ['src/money/currency.ts'],
    edits: ['src/money/amount.ts'],
    test: 'tests/amount.test.ts',
    failFirst: {
      name: 'amount > formats JPY without decimals',
      expected: '"¥1,200"',
      received: '"¥1,200.00"',
      fix: 'formatAmount ignored the scale and always used two fraction digits; it now passes minimumFractionDigits/maximumFractionDigits = scale',
    },
    concepts: ['currency scale (ISO 4217 minor unit digits)'],
    plan: 'parseAmount already looks up the scale, but formatAmount hard-codes two fraction digits. Also "¥1200.50" should be rejected for JPY rather than silently truncated.',
    done: 'JPY works end to end: `¥1,200` parses to `minor: 1200n, scale: 0`, prints without decimals, and `¥1200.50` is rejected with `bad-amount` (a fractional yen). Symbols live in `src/money/currency.ts`.',
  },
  {
    text: 'Add --by quarter and --by year to report.',
    intent: 'report --by quarter|year',
    edits: ['src/commands/report.ts', 'src/dates/period.ts'],
    test: 'tests/report.test.ts',
    concepts: [],
    plan: 'periodKey() already supports all three granularities; the report just needs to validate --by and sort keys. Q keys sort correctly as strings ("2026-Q1" < "2026-Q2").',
    done: '`--by quarter` and `--by year` work; an unknown value is a usage error (exit 2) listing the accepted values.',
  },
  {
    text: 'Bug: `tally report` on a journal that only has comments crashes with "Cannot read properties of undefined (reading \'currency\')". Fix it.',
    intent: 'Fix crash of report on a journal with only comments',
    edits: ['src/commands/report.ts'],
    reads: ['src/commands/report.ts', 'src/money/amount.ts'],
    test: 'tests/report.test.ts',
    concepts: [],
    plan: 'The crash is items[0]?.amount.currency with an empty list: the optional chain stops at items[0] but not at .amount. With no transactions the report should print the header and no rows, and exit 0.',
    done: 'Fixed: an empty journal now prints the table header with no rows and exits 0. The default currency for an empty sum comes from `--currency` or EUR.',
  },
  {
    text: 'Generate a big journal (50k transactions) into fixtures/big.journal and see how long report and export take on it.',
    intent: 'Performance check on a generated 50k-transaction journal',
    concepts: ['performance measurement with hyperfine-style repeated runs'],
    special: ['persisted'],
    plan: 'A quick generator script with a seeded random so the file is reproducible, then time report and export. Export prints every posting, so its output will be large; that is fine, I only need the timing.',
    done: 'On 50k transactions (150k lines, 4.1 MB): `report` takes 0.62 s and `export --format csv` 0.95 s. A profile shows 40 % of the time in the `SEPARATOR` regex split per line; there is room to improve.',
  },
  {
    text: 'Make the parser faster. Avoid the regex split per line if it is the hot spot, but keep it readable.',
    intent: 'Speed up the parser (replace the per-line regex split)',
    edits: ['src/journal/lexer.ts', 'src/journal/parser.ts'],
    reads: ['src/journal/lexer.ts'],
    test: 'tests/lexer.test.ts',
    concepts: ['hand-written scanning instead of regex split in the hot loop'],
    plan: 'Replace SEPARATOR.split with a scan for the first run of two spaces or a tab using indexOf, which avoids allocating a regex match array per line. Keep the regex for date lines, those are only a third of the lines.',
    done: '`report` on the big journal went from 0.62 s to 0.31 s. The posting split is now an `indexOf` scan for two spaces or a tab; the date regex stays. All tests still pass.',
  },
  {
    text: 'Add --json to balance so scripts can consume it.',
    intent: 'balance --json',
    edits: ['src/commands/balance.ts', 'src/cli.ts'],
    test: 'tests/cli.test.ts',
    concepts: [],
    special: ['api-error'],
    plan: 'Amounts in JSON: strings in plain format ("-12.30"), not numbers, so no precision is lost; include currency separately.',
    done: '`tally balance --json` prints `[{"account":"expenses:food","amount":"612.40","currency":"EUR"}, …]`. Amounts are strings on purpose, so no consumer parses them into floats by accident.',
  },
  {
    text: 'Update the README: syntax of the journal, every command with an example.',
    intent: 'README with journal syntax and examples',
    edits: ['README.md'],
    reads: ['README.md', 'src/cli.ts'],
    concepts: [],
    plan: 'Take the examples from the household fixture so they are real output.',
    done: 'README updated: journal syntax (dates, postings, the 2-space rule, comments, tags), one example per command with real output from `fixtures/household.journal`, and the exit codes.',
  },
  {
    text: 'parseAmount should also accept amounts with a space as thousands separator, like `1 234,56 EUR`.',
    intent: 'Accept a space as thousands separator in amounts',
    edits: ['src/money/amount.ts'],
    test: 'tests/amount.test.ts',
    concepts: [],
    special: ['reject'],
    plan: 'The simplest change is to normalise the amount text before parsing. I could change the signature of parseAmount to take a locale hint, but that would ripple through the parser.',
    done: 'Done without touching the signature: `normalizeDigits()` removes spaces (and U+202F narrow no-break spaces, which French locale output uses) between digit groups before the separator logic runs. `1 234,56 EUR` parses to 123456 minor units.',
  },
  {
    text: 'Add a --tag filter to report and export, e.g. `--tag shared`.',
    intent: '--tag filter for report and export',
    edits: ['src/commands/report.ts', 'src/commands/export.ts', 'src/cli.ts'],
    test: 'tests/report.test.ts',
    concepts: ['tags parsed from `; #tag` comments on the payee line'],
    special: ['queue'],
    plan: 'Tags are already parsed into transaction.tags. The filter belongs in one place: a helper that filters transactions before any command sees them.',
    done: '`--tag shared` (repeatable) keeps only transactions with all the given tags, for `report`, `export` and `balance`. The filter runs once in `cli.ts` before dispatch.',
  },
  {
    text: 'Journals saved on Windows have CRLF line endings and every posting then fails with bad-amount. Fix that.',
    intent: 'Accept CRLF line endings',
    edits: ['src/journal/lexer.ts'],
    reads: ['src/journal/lexer.ts', 'src/journal/parser.ts'],
    test: 'tests/lexer.test.ts',
    failFirst: {
      name: 'tokenizeLine > strips a trailing carriage return',
      expected: '"EUR"',
      received: '"EUR\\r"',
      fix: 'the parser split on /\\r?\\n/ but tests call tokenizeLine directly with a trailing \\r; the lexer now strips one trailing \\r itself',
    },
    concepts: ['CRLF vs LF line endings'],
    plan: 'parseJournal splits on /\\r?\\n/, so the CR must come from somewhere else: the lexer is also called directly by `check --stdin`, which splits on "\\n" only. Handle it once, in the lexer.',
    done: 'CRLF journals parse now: the lexer strips one trailing `\\r` per line, so every entry point is covered. Regression test added.',
  },
  {
    text: 'Make `tally check` group diagnostics by file and end with a summary line like `3 errors, 1 warning`.',
    intent: '`check` groups diagnostics by file and prints a summary line',
    edits: ['src/commands/check.ts', 'src/journal/errors.ts'],
    test: 'tests/cli.test.ts',
    concepts: [],
    plan: 'Diagnostics are already sorted by line. Group by fileName (one file today, but include directives are coming), then count by severity for the summary. Pluralise properly.',
    done: '`tally check` prints the diagnostics per file and ends with `3 errors, 1 warning` (or `no problems`). Exit code rules are unchanged.',
  },
  {
    text: 'Add --from and --to date filters that work for every command.',
    intent: '--from/--to date filters for every command',
    edits: ['src/cli.ts', 'src/dates/period.ts'],
    test: 'tests/cli.test.ts',
    concepts: ['half-open date ranges: --from inclusive, --to exclusive'],
    plan: 'Half-open ranges avoid the "is the end date included" question: --from inclusive, --to exclusive, like most ledger tools. Validate both as ISO dates and reject --from after --to as a usage error.',
    done: '`--from 2026-01-01 --to 2026-04-01` works for all commands (from inclusive, to exclusive). Invalid dates and an empty range are usage errors with exit code 2.',
  },
  {
    text: 'Add `--running` to export so the CSV gets a running balance column per account.',
    intent: 'export --running adds a running balance column',
    edits: ['src/commands/export.ts'],
    reads: ['src/commands/export.ts', 'src/money/amount.ts'],
    test: 'tests/report.test.ts',
    concepts: [],
    plan: 'The running balance is per (account, currency) and must follow date order, not file order. Reuse the same running-balance map the balance command builds.',
    done: '`tally export --running` adds a `running` column: the balance of that account after the posting, in date order.',
  },
  {
    text: 'Misspelled accounts are a common mistake. When an account is not declared with an `account` directive, suggest the closest declared one (edit distance 2 or less).',
    intent: 'Suggest the closest declared account for undeclared accounts',
    edits: ['src/journal/parser.ts', 'src/journal/errors.ts'],
    test: 'tests/parser.test.ts',
    failFirst: {
      name: 'parseJournal > suggests expenses:groceries for expenses:grocreies',
      expected: '"did you mean expenses:groceries?"',
      received: 'undefined',
      fix: 'the suggestion looked only at leaf names; it now compares full account paths and ignores candidates whose first segment differs',
    },
    concepts: ['Levenshtein distance for "did you mean" suggestions'],
    plan: 'Only journals that declare accounts opt into this, so existing journals do not suddenly get warnings. A plain O(n·m) Levenshtein is fine: account names are short and declared accounts are few.',
    done: 'Undeclared accounts get a warning `unknown-account` with `did you mean expenses:groceries?` when a declared account is within edit distance 2. Journals without `account` directives are unaffected.',
  },
  {
    text: 'Sort balance output by absolute amount with --sort amount, default stays alphabetical.',
    intent: 'balance --sort amount',
    edits: ['src/commands/balance.ts', 'src/cli.ts'],
    test: 'tests/report.test.ts',
    concepts: [],
    plan: 'Sorting must happen per tree level, otherwise children end up away from their parents.',
    done: '`--sort amount` orders each level of the account tree by absolute amount (largest first); children stay under their parents.',
  },
  {
    text: "Back after lunch. Where were we? Let's look at the lint warnings next.",
    intent: 'Resume after a break; fix lint warnings',
    edits: ['src/journal/parser.ts', 'src/report/table.ts'],
    concepts: ['biome lint'],
    special: ['break', 'unknown-record'],
    plan: 'Before lunch we finished `--sort amount` for balance. Run the linter and see what it reports.',
    done: 'Lint is clean: removed two unused imports, replaced a `forEach` with `for…of` in the parser hot loop, and used `Number.parseInt` with a radix in `period.ts`.',
  },
  {
    text: 'Add an `include other.journal` directive, paths relative to the including file.',
    intent: '`include` directive with paths relative to the including file',
    edits: ['src/journal/parser.ts', 'src/cli.ts'],
    reads: ['src/journal/parser.ts', 'src/journal/lexer.ts'],
    test: 'tests/parser.test.ts',
    failFirst: {
      name: 'parseJournal > resolves include paths relative to the including file',
      expected: '"fixtures/sub/b.journal"',
      received: '"b.journal"',
      fix: 'include paths were resolved against the working directory; they now resolve against dirname(fileName) and cycles are detected with a set of visited paths',
    },
    concepts: ['include directives with cycle detection'],
    plan: 'parseJournal is pure and takes text, so reading the included file has to come from outside: pass a readFile callback in the options. Track visited paths to report include cycles instead of recursing forever.',
    done: '`include other.journal` works; paths resolve relative to the including file, an include cycle is an `include-cycle` error, and diagnostics carry the file they come from.',
  },
  {
    text: 'Add a --quiet flag that hides warnings but still prints errors.',
    intent: '--quiet hides warnings',
    edits: ['src/cli.ts', 'src/journal/errors.ts'],
    test: 'tests/cli.test.ts',
    concepts: [],
    plan: 'Filter at print time only; the exit code logic must still see every diagnostic.',
    done: '`--quiet` suppresses warnings on stderr; errors are still printed and still set exit code 1.',
  },
  {
    text: 'Add `--currency USD` to report: convert using the latest `P` price directive before each posting date, and skip postings with no price with one warning.',
    intent: 'report --currency with conversion via `P` price directives',
    edits: ['src/commands/report.ts', 'src/money/amount.ts'],
    reads: ['src/commands/report.ts', 'src/money/currency.ts'],
    test: 'tests/report.test.ts',
    concepts: ['historical prices: the latest `P` directive on or before the posting date'],
    plan: 'Prices form a per-pair timeline; for each posting, binary-search the latest price on or before its date. Warn once per currency pair without a price, not once per posting.',
    done: '`tally report --currency USD` converts every posting with the latest `P` price on or before its date. Missing prices give one `no-price` warning per currency pair and those postings are left out of the totals.',
  },
  {
    text: 'What is our test coverage like for the parser? Add tests where it is thin.',
    intent: 'Improve parser test coverage',
    edits: ['tests/parser.test.ts'],
    reads: ['src/journal/parser.ts', 'tests/parser.test.ts'],
    test: 'tests/parser.test.ts',
    concepts: [],
    plan: 'Without a coverage tool configured, go by reading: the recovery path after a bad posting and the two-inferred-amounts error have no direct tests.',
    done: 'Added tests for recovery after a bad posting, for two inferred amounts, for a posting before the first transaction and for a transaction at the very end of the file without a newline.',
  },
  {
    text: 'Support balance assertions: a posting can end with `= 1200.00 EUR` and check should report if the running balance differs.',
    intent: 'Balance assertions (`= amount` after a posting) checked by `tally check`',
    edits: ['src/journal/parser.ts', 'src/journal/lexer.ts', 'src/journal/ast.ts'],
    test: 'tests/parser.test.ts',
    failFirst: {
      name: 'parseJournal > reports a failed balance assertion',
      expected: '[ { code: "assertion-failed", line: 7 } ]',
      received: '[]',
      fix: 'assertions were checked before the inferred amount was filled in; the check now runs after balancing, against the running balance per account and currency',
    },
    concepts: ['balance assertions checked against running balances per account and currency'],
    special: ['manual-compact'],
    plan: 'An assertion checks the running balance of the account after this posting. The running balance must be kept per (account, currency) while parsing, in date order; a journal in file order that is not sorted by date needs a sort first, otherwise assertions fail spuriously.',
    done: 'Balance assertions work: `= 1200.00 EUR` after a posting checks the running balance of that account after the posting, in date order. A mismatch is an `assertion-failed` error showing expected and actual amounts.',
  },
  {
    text: '[Image #1] The report columns are misaligned when a payee or account has CJK characters, see the screenshot. The Net column drifts right.',
    intent: 'Fix table alignment for wide (CJK) characters in the report (user sent a screenshot)',
    edits: ['src/report/table.ts'],
    reads: ['src/report/table.ts', 'src/commands/report.ts'],
    test: 'tests/report.test.ts',
    failFirst: {
      name: 'report > aligns wide characters in the payee column',
      expected: '"食費        1,204.00"',
      received: '"食費    1,204.00"',
      fix: 'padEnd counted UTF-16 code units; padding now uses displayWidth(), which counts East Asian wide characters as two columns',
    },
    concepts: ['display width vs string length: East Asian Wide characters take two terminal columns'],
    special: ['image'],
    plan: 'The screenshot shows the rows with 食費 shifted by exactly the number of CJK characters. padEnd() pads by UTF-16 code units, but a terminal draws each of those characters two columns wide. I need a displayWidth() that counts East Asian Wide and Fullwidth code points as 2 and use it for padding.',
    done: 'Fixed: padding now uses `displayWidth()`, which counts East Asian Wide/Fullwidth code points as two columns (ranges from Unicode UAX #11). The screenshot case is a regression test in `tests/report.test.ts`. Emoji with variation selectors are still approximate, but those are unlikely in account names.',
  },
  {
    text: 'The parser is getting big. Split posting parsing out of parseJournal into its own function and make the error recovery easier to follow.',
    intent: 'Refactor the parser: separate posting parsing, clearer error recovery',
    edits: ['src/journal/parser.ts', 'src/journal/parser.ts'],
    reads: ['src/journal/parser.ts', 'src/journal/errors.ts'],
    test: 'tests/parser.test.ts',
    concepts: ['parser state machine: outside / in-transaction / skipping'],
    plan: 'Three states make the recovery explicit: outside a transaction, inside one, and skipping after an error until the next date line. parsePosting() returns either a posting or a diagnostic.',
    done: 'The parser is now an explicit state machine (`outside`, `inTransaction`, `skipping`) with `parsePosting()` returning `{ ok: true, posting } | { ok: false, diagnostic }`. Behaviour is unchanged; all parser tests pass.',
  },
  {
    text: 'Add multi-currency transactions: a transaction may have postings in two currencies if one posting has a price `@ 1.08 USD`. Balance it in the price currency.',
    intent: 'Multi-currency transactions with `@ price` conversion',
    edits: ['src/journal/parser.ts', 'src/money/amount.ts'],
    test: 'tests/parser.test.ts',
    concepts: ['per-unit prices (`@`) convert a posting for balancing'],
    plan: 'With a price, the posting counts as amount × price in the price currency for balancing only; the posting itself keeps its own currency. Rounding: multiply in minor units with bigint and round half-even at the target scale.',
    done: 'Postings can carry `@ 1.08 USD`; for balancing they count as amount × price in USD, rounded half-even at the USD scale. Without a price, two currencies in one transaction are still a `mixed-currency` error.',
  },
  {
    text: 'Write a few property-style tests for the parser: random journals generated from a seed should round-trip through export and parse again to the same postings.',
    intent: 'Property-style round-trip tests (generate → export → parse)',
    edits: ['tests/parser.test.ts'],
    reads: ['src/commands/export.ts'],
    test: 'tests/parser.test.ts',
    concepts: ['property-based testing with a seeded generator'],
    plan: 'No new dependency: a tiny seeded PRNG in the test file generates journals; export them as a journal again and parse; postings must be equal. 200 seeds keep the test under a second.',
    done: 'Added a round-trip property test over 200 seeds. It found one real bug: a payee ending in two spaces was split as if it had an amount. Fixed by only splitting on the separator in indented lines.',
  },
  {
    text: "Virtual postings in parentheses, like `(budget:food)  -50.00 EUR`, shouldn't have to balance. Support them.",
    intent: 'Virtual postings in parentheses are exempt from balancing',
    edits: ['src/journal/parser.ts', 'src/journal/ast.ts'],
    test: 'tests/parser.test.ts',
    failFirst: {
      name: 'parseJournal > does not balance virtual postings',
      expected: '[]',
      received: '[ { code: "unbalanced", line: 3 } ]',
      fix: 'the lexer kept the parentheses in the account name, so the posting was never recognised as virtual; the parser now strips them and sets `virtual: true`, and balancing skips virtual postings',
    },
    concepts: ['virtual (unbalanced) postings in parentheses'],
    plan: 'Add `virtual: boolean` to Posting. The parentheses are part of the account token; strip them in one place, the parser, and keep the account name clean for reports.',
    done: 'Postings written as `(account)` are virtual: they appear in balances and reports but are skipped when checking that a transaction balances.',
  },
  {
    text: 'The parser allocates a Token array per line, 200k arrays for the big journal. Can we avoid that without making the code ugly?',
    intent: 'Avoid per-line token arrays in the parser hot path',
    edits: ['src/journal/lexer.ts', 'src/journal/parser.ts'],
    reads: ['src/journal/lexer.ts', 'src/journal/parser.ts'],
    test: 'tests/lexer.test.ts',
    concepts: ['reusing a scratch object instead of allocating per line'],
    plan: 'The parser only ever looks at the tokens of the current line. A single reusable LineScan object (kind, account, amountText, column) filled by the lexer avoids the arrays; tokenizeLine() can stay as a thin wrapper for the tests.',
    done: 'The parser now uses `scanLine()`, which fills one reusable `LineScan` object; `tokenizeLine()` remains for tests and tools. `report` on the big journal: 0.31 s → 0.24 s.',
  },
  {
    text: 'Add --strict: undeclared accounts and commodities become errors instead of warnings.',
    intent: '--strict turns undeclared accounts/commodities into errors',
    edits: ['src/journal/parser.ts', 'src/cli.ts'],
    test: 'tests/cli.test.ts',
    concepts: [],
    plan: 'Pass strict through ParseOptions and choose the severity where the diagnostic is created, so check and the exit code logic need no change.',
    done: '`--strict` makes `unknown-account` and `unknown-commodity` errors (exit code 1). Without it they stay warnings.',
  },
  {
    text: 'Final check for today: run everything, update the README for assertions and prices, and commit.',
    intent: 'Full check, README for assertions/prices, commit',
    edits: ['README.md'],
    concepts: [],
    special: ['commit'],
    plan: 'Tests, tsc, lint, then the README section and a commit.',
    done: 'Everything passes (tests, `tsc --noEmit`, lint). README documents assertions and prices. Committed as `feat: balance assertions and priced postings`.',
  },
];

/** Prompts typed when the scripted story has run out (long benchmark sessions). */
export function createFollowUp(rng: Rng, round: number): PromptSpec {
  const editable = [
    'src/journal/parser.ts',
    'src/journal/lexer.ts',
    'src/money/amount.ts',
    'src/commands/report.ts',
    'src/report/table.ts',
    'src/commands/export.ts',
  ];
  const file = rng.pick(editable);
  const category = rng.pick(CATEGORIES);
  const payee = rng.pick(PAYEES);
  const asks = [
    `The ${category} totals look off for ${payee} in the big journal. Investigate ${file} and fix it.`,
    `Tidy up ${file}: the helpers added in the last rounds overlap. Keep behaviour identical.`,
    `Add a regression test for ${payee} postings tagged #shared and make it pass.`,
    `Profile report on fixtures/big.journal again and speed up ${file} if it shows up.`,
    `A user reports that ${category} postings from ${payee} are counted twice with --running. Look into ${file}.`,
    `Rename the confusing helpers in ${file} so their names say what they return.`,
    `The error message for a bad amount in ${file} is unhelpful. Make it show the text that failed to parse.`,
    `Add JSDoc to the exported functions of ${file}; keep it short.`,
  ];
  const text = rng.pick(asks);
  return {
    text,
    intent: `Round ${round}: ${text.split('.')[0]}`,
    edits: [file, file],
    reads: [file, 'src/journal/ast.ts'],
    test: rng.pick(['tests/parser.test.ts', 'tests/report.test.ts', 'tests/amount.test.ts']),
    failFirst: rng.chance(0.4)
      ? {
          name: `regression > ${payee} postings (${round})`,
          expected: `${rng.int(100, 900)}00n`,
          received: `${rng.int(100, 900)}00n`,
          fix: `an off-by-one in ${file} when a transaction ends at the last line of the file`,
        }
      : undefined,
    concepts: [],
    plan: `Start from ${file}; reproduce with a focused test before changing anything.`,
    done: `Done: ${file} is fixed and covered by a regression test; the full suite passes.`,
  };
}
