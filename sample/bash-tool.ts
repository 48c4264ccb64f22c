// Bash tool calls of the story: what the command prints, as the model sees it (`content`) and as
// Claude Code stores it (`toolUseResult` with stdout/stderr, docs/sources.md#fmt-messages).

import type { BashRun } from './plan';
import { countTests, formatExportCsv, formatReport, formatVitestRun, type TestFailure } from './project';
import { FILES, PROJECT_DIR } from './project-files';
import { randomBase36, randomHex } from './prng';
import type { ProjectState, ToolEnv, ToolOutcome } from './tools';
import type { JsonObject } from './transcript-writer';

function testCounts(project: ProjectState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const spec of FILES) {
    if (spec.kind !== 'test') continue;
    const content = project.files.get(spec.path);
    if (content !== undefined) counts.set(spec.path, countTests(content));
  }
  if (counts.size === 0) counts.set('tests/lexer.test.ts', 0);
  return counts;
}

const bashOk = (stdout: string, extra: JsonObject = {}): JsonObject => ({
  stdout,
  stderr: '',
  interrupted: false,
  isImage: false,
  ...extra,
});

/** The command and output of one planned shell step (tests, type check, git, the CLI itself). */
export function runBash(env: ToolEnv, run: BashRun): ToolOutcome {
  const { rng, project, spec } = env;
  const done = (
    command: string,
    description: string,
    stdout: string,
    executionMs: number,
    slow = false,
  ): ToolOutcome => ({
    name: 'Bash',
    input: { command, description },
    content: stdout,
    toolUseResult: bashOk(stdout, { noOutputExpected: false }),
    isError: false,
    executionMs,
    slow,
  });
  switch (run) {
    case 'ls':
      return done(
        'ls -la',
        'List the repository contents',
        'total 12\ndrwxr-xr-x  3 mira mira 4096 Mar  9 08:41 .\ndrwxr-xr-x 14 mira mira 4096 Mar  9 08:40 ..\ndrwxr-xr-x  7 mira mira 4096 Mar  9 08:41 .git\n-rw-r--r--  1 mira mira   31 Mar  9 08:41 .gitignore',
        rng.int(40, 120),
      );
    case 'install':
      return done(
        'npm install',
        'Install dev dependencies',
        `\nadded ${rng.int(40, 60)} packages, and audited ${rng.int(61, 70)} packages in ${rng.int(4, 9)}s\n\n12 packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`,
        rng.int(4000, 9000),
        true,
      );
    case 'test':
      return done(
        'npx vitest run',
        'Run the test suite',
        formatVitestRun(testCounts(project), [], rng),
        rng.int(1500, 4000),
        true,
      );
    case 'test-fail': {
      const f = spec.failFirst;
      const failure: TestFailure = {
        file: spec.test ?? 'tests/parser.test.ts',
        name: f?.name ?? 'parseJournal > regression',
        expected: f?.expected ?? 'true',
        received: f?.received ?? 'false',
        atLine: rng.int(20, 140),
      };
      const stdout = formatVitestRun(testCounts(project), [failure], rng);
      const content = `Exit code 1\n${stdout}`;
      return {
        name: 'Bash',
        input: { command: 'npx vitest run', description: 'Run the test suite' },
        content,
        toolUseResult: `Error: ${content}`,
        isError: true,
        executionMs: rng.int(1500, 4000),
        slow: true,
      };
    }
    case 'tsc':
      return done(
        'npx tsc --noEmit && echo "tsc: ok"',
        'Type-check the project',
        'tsc: ok',
        rng.int(2000, 5000),
        true,
      );
    case 'lint': {
      const summary = `Checked ${project.files.size} files in ${rng.int(9, 40)}ms. No fixes applied.`;
      const warnings = /lint warnings/.test(spec.text)
        ? [
            'src/journal/parser.ts:3:10 lint/correctness/noUnusedImports  FIXABLE  ━━━━━━━━━━━━━━━━━━━━',
            '',
            '  ! This import is unused.',
            '',
            'src/journal/parser.ts:41:5 lint/complexity/noForEach ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━',
            '',
            '  ! Prefer for...of instead of forEach.',
            '',
            'src/dates/period.ts:18:17 lint/style/useNumberNamespace  FIXABLE  ━━━━━━━━━━━━━━━━━━━━━━━',
            '',
            '  ! Use Number.parseInt instead of the equivalent global.',
            '',
            summary,
            'Found 3 warnings.',
          ].join('\n')
        : summary;
      return done('npx biome check src tests', 'Lint sources and tests', warnings, rng.int(300, 900));
    }
    case 'git-status': {
      const changed = [...project.files.keys()].slice(0, 14).map((p) => `?? ${p}`);
      return done('git status --short', 'Show working tree status', changed.join('\n'), rng.int(30, 90));
    }
    case 'git-branch':
      project.branch = 'feat/reports';
      return done(
        'git checkout -b feat/reports',
        'Create the feature branch',
        "Switched to a new branch 'feat/reports'",
        rng.int(30, 90),
      );
    case 'git-commit': {
      const n = project.files.size;
      const message =
        spec.special?.includes('branch') === true
          ? 'feat: journal parser, balance/report/export/check commands'
          : 'feat: balance assertions and priced postings';
      return done(
        `git add -A && git commit -m "${message}"`,
        'Commit the work',
        `[${project.branch} ${randomHex(rng, 7)}] ${message}\n ${n} files changed, ${rng.int(900, 2600)} insertions(+), ${rng.int(10, 300)} deletions(-)`,
        rng.int(100, 400),
      );
    }
    case 'report':
      return done(
        'npm run -s build && node dist/cli.js report fixtures/household.journal --by month',
        'Build and run the report on the sample journal',
        formatReport(rng, 'month'),
        rng.int(1500, 3000),
      );
    case 'gen-big':
      return done(
        'node scripts/gen-journal.mjs 50000 > fixtures/big.journal && wc -l fixtures/big.journal && ls -lh fixtures/big.journal',
        'Generate a 50k-transaction journal',
        '200000 fixtures/big.journal\n-rw-r--r-- 1 mira mira 4.1M Mar  9 14:02 fixtures/big.journal',
        rng.int(1200, 2500),
        true,
      );
    case 'time-report':
      return done(
        'npm run -s build && time node dist/cli.js report fixtures/big.journal --by month > /dev/null',
        'Time the report on the big journal',
        `\nreal\t0m0.${rng.int(580, 660)}s\nuser\t0m0.${rng.int(700, 800)}s\nsys\t0m0.0${rng.int(60, 99)}s`,
        rng.int(2500, 4000),
        true,
      );
    case 'export-big': {
      // Over Claude Code's inline limit: the result is a `<persisted-output>` stub (docs/sources.md#fmt-persisted-output).
      const preview = formatExportCsv(rng, 40).slice(0, 2048);
      const stub = `<persisted-output>\nOutput too large (${(5.8 + rng.next()).toFixed(1)}MB). Full output saved to: ${PROJECT_DIR}/${env.sessionId}/tool-results/${randomBase36(rng, 9)}.txt\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
      return {
        name: 'Bash',
        input: {
          command: 'time node dist/cli.js export fixtures/big.journal --format csv',
          description: 'Time the CSV export',
        },
        content: stub,
        toolUseResult: bashOk(preview, { noOutputExpected: false }),
        isError: false,
        executionMs: rng.int(3000, 5000),
        slow: true,
      };
    }
  }
}
