// Runs a planned tool call against the simulated project: the tool_use input, the tool_result
// content the model sees, and the structured `toolUseResult` Claude Code stores beside it
// (shapes per docs/sources.md#fmt-messages).

import { runBash } from './bash-tool';
import type { ToolAction } from './plan';
import { countTests, formatNumbered, synthesizeFile } from './project';
import { FILES, getFileSpec, PROJECT_CWD } from './project-files';
import type { Rng } from './prng';
import type { PromptSpec } from './story';
import type { JsonObject } from './transcript-writer';

export interface ProjectState {
  seed: number;
  /** Multiplies synthesized file lengths (bigger tool outputs for benchmark sessions). */
  scale: number;
  files: Map<string, string>;
  revisions: Map<string, number>;
  branch: string;
  /** A resumed session: every catalog file already exists before the first prompt. */
  preexisting: boolean;
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

export interface ToolOutcome {
  name: string;
  input: JsonObject;
  content: string | JsonObject[];
  toolUseResult: unknown;
  isError: boolean;
  executionMs: number;
  /** The file this call wrote, for file-history snapshots and PostToolUse hooks. */
  changed?: string;
  /** Long-running command: Claude Code writes bash_progress entries while it runs. */
  slow?: boolean;
}

export interface ToolEnv {
  rng: Rng;
  project: ProjectState;
  spec: PromptSpec;
  sessionId: string;
  todos: TodoItem[];
}

/** 2.1.x appends this reminder to every Read result (paraphrased; only its size matters here). */
const READ_REMINDER =
  '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it looks malicious. If it does, you can explain what it does, but you must refuse to improve or extend it.\n</system-reminder>\n';

const GEN_JOURNAL_SCRIPT = [
  '// Writes a reproducible journal of N transactions to stdout (seeded, no dependencies).',
  "const n = Number(process.argv[2] ?? '50000');",
  'let seed = 42;',
  'const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);',
  "const payees = ['Corner Bakery', 'City Transit', 'Green Grocer', 'Hardware Depot', 'Swim Club'];",
  "const accounts = ['food:groceries', 'food:eating-out', 'transport', 'home:utilities', 'sport'];",
  'for (let i = 0; i < n; i++) {',
  '  const month = String(1 + (i % 12)).padStart(2, "0");',
  '  const day = String(1 + (i % 28)).padStart(2, "0");',
  '  const amount = (2 + rand() * 250).toFixed(2);',
  `  process.stdout.write(\`2025-\${month}-\${day} \${payees[i % payees.length]}\\n\`);`,
  `  process.stdout.write(\`    expenses:\${accounts[i % accounts.length]}    \${amount} EUR\\n    assets:checking\\n\\n\`);`,
  '}',
  '',
].join('\n');

export const abs = (path: string): string => `${PROJECT_CWD}/${path}`;

export function fileExists(project: ProjectState, path: string): boolean {
  return project.files.has(path) || (project.preexisting && FILES.some((f) => f.path === path));
}

/** The file's current text; files the story never wrote are treated as written earlier. */
export function readProjectFile(project: ProjectState, path: string): string {
  let content = project.files.get(path);
  if (content === undefined) {
    content =
      path === 'scripts/gen-journal.mjs'
        ? GEN_JOURNAL_SCRIPT
        : synthesizeFile(project.seed, getFileSpec(path), 1, project.scale);
    project.files.set(path, content);
    project.revisions.set(path, 1);
  }
  return content;
}

function writeProjectFile(project: ProjectState, path: string, content: string): void {
  project.files.set(path, content);
  project.revisions.set(path, (project.revisions.get(path) ?? 0) + 1);
}

const INSERTED_LINES = [
  'if (text.length === 0) return undefined;',
  "const width = displayWidth(text ?? '');",
  'if (!line) continue;',
  'diagnostics.push({ line, column, code: CODES.badAmount, severity: "error", message });',
  `const key = \`\${account}\\u0000\${currency}\`;`,
  'if (options.maxErrors !== undefined && diagnostics.length >= options.maxErrors) break;',
  'const separator = findSeparator(text);',
] as const;

interface EditSpan {
  oldString: string;
  newString: string;
  /** 1-based line where oldString starts. */
  startLine: number;
}

/** Edits stop adding lines once a file is this long (twice its synthesized length at revision 1). */
function maxLines(project: ProjectState, path: string): number {
  const spec = FILES.find((f) => f.path === path);
  return spec ? spec.head.split('\n').length + Math.round(spec.bodyLines * project.scale * 2) + 20 : 200;
}

/** Whether line `index` sits in a function body (the enclosing top-level line declares a function). */
function isInsideFunction(lines: string[], index: number): boolean {
  for (let i = index; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (line === '' || line.startsWith(' ') || line.startsWith('\t')) continue;
    return /^((export )?(async )?function |describe\()/.test(line);
  }
  return false;
}

/** Picks a unique run of lines and changes it the way a small code edit would. */
function createEditSpan(rng: Rng, content: string, path: string, maxLines: number): EditSpan {
  const lines = content.split('\n');
  // Long sessions edit the same files thousands of times: past the cap, edits replace a line.
  const grow = lines.length < maxLines;
  if (path.startsWith('tests/') && grow) {
    const closing = content.lastIndexOf('\n});');
    const startLine = content.slice(0, closing).split('\n').length;
    const oldString = '  });\n});';
    const n = countTests(content) + 1;
    const name = `handles case ${n} from the bug report`;
    const newString = [
      '  });',
      '',
      `  it('${name}', () => {`,
      `    const journal = parseJournal('2026-03-${String(rng.int(1, 28)).padStart(2, '0')} Swim Club\\n  expenses:sport  ${rng.int(5, 80)}.00 EUR\\n  assets:checking');`,
      '    expect(journal.diagnostics).toEqual([]);',
      '  });',
      '});',
    ].join('\n');
    return { oldString, newString, startLine: startLine - 1 };
  }
  for (let attempt = 0; attempt < 24; attempt++) {
    const start = rng.int(Math.min(3, lines.length - 1), Math.max(3, lines.length - 4));
    const length = rng.int(2, 4);
    const chunk = lines.slice(start, start + length);
    if (chunk.length < 2 || chunk.some((l) => l.trim() === '' || l.startsWith('}'))) continue;
    if (path.endsWith('.ts') && !isInsideFunction(lines, start)) continue;
    const oldString = chunk.join('\n');
    if (oldString.trim().length < 8 || content.indexOf(oldString) !== content.lastIndexOf(oldString))
      continue;
    const indent = (chunk[1] ?? chunk[0] ?? '').match(/^\s*/)?.[0] ?? '  ';
    const inserted = `${indent}${rng.pick(INSERTED_LINES)}`;
    const newString = (
      grow ? [chunk[0], inserted, ...chunk.slice(1)] : [chunk[0], inserted, ...chunk.slice(2)]
    ).join('\n');
    return { oldString, newString, startLine: start + 1 };
  }
  // Small files (configs): append a line at the end.
  const last = lines.length >= 2 ? lines[lines.length - 2] : lines[0];
  const oldString = last ?? '';
  return { oldString, newString: `${oldString}\n`, startLine: Math.max(1, lines.length - 1) };
}

function structuredPatch(span: EditSpan, content: string): JsonObject[] {
  const lines = content.split('\n');
  const oldLines = span.oldString.split('\n');
  const newLines = span.newString.split('\n');
  const before = lines.slice(Math.max(0, span.startLine - 4), span.startLine - 1);
  const after = lines.slice(span.startLine - 1 + oldLines.length, span.startLine - 1 + oldLines.length + 3);
  const oldStart = span.startLine - before.length;
  return [
    {
      oldStart,
      oldLines: before.length + oldLines.length + after.length,
      newStart: oldStart,
      newLines: before.length + newLines.length + after.length,
      lines: [
        ...before.map((l) => ` ${l}`),
        ...oldLines.map((l) => `-${l}`),
        ...newLines.map((l) => `+${l}`),
        ...after.map((l) => ` ${l}`),
      ],
    },
  ];
}

function editedSnippet(updated: string, span: EditSpan): string {
  const lines = updated.split('\n');
  const from = Math.max(0, span.startLine - 5);
  const to = Math.min(lines.length, span.startLine + span.newString.split('\n').length + 4);
  return formatNumbered(lines.slice(from, to).join('\n'), from + 1);
}

/** Exported names in the file, for Grep patterns. */
function exportedNames(content: string): string[] {
  const out: string[] = [];
  const re = /export (?:async )?(?:function|const|interface|type) (\w+)/g;
  for (let m = re.exec(content); m; m = re.exec(content)) out.push(m[1] as string);
  return out;
}

function todoWrite(env: ToolEnv, step: 'start' | 'progress' | 'done'): ToolOutcome {
  const oldTodos = env.todos.map((t) => ({ ...t }));
  const items = env.spec.todos ?? [];
  if (step === 'start') {
    env.todos.splice(
      0,
      env.todos.length,
      ...items.map((content, i) => ({
        content,
        status: i === 0 ? ('in_progress' as const) : ('pending' as const),
        activeForm: `${content.replace(/^(\w+)/, (w) => `${w.replace(/e$/, '')}ing`)}`,
      })),
    );
  } else {
    const finished = step === 'done' ? env.todos.length : Math.ceil(env.todos.length / 2);
    env.todos.forEach((t, i) => {
      t.status = i < finished ? 'completed' : i === finished ? 'in_progress' : 'pending';
    });
  }
  const newTodos = env.todos.map((t) => ({ ...t }));
  return {
    name: 'TodoWrite',
    input: { todos: newTodos },
    content:
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
    toolUseResult: { oldTodos, newTodos },
    isError: false,
    executionMs: env.rng.int(5, 30),
  };
}

const WEBFETCH_URL =
  'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/NumberFormat/resolvedOptions';
const WEBFETCH_ANSWER =
  '`resolvedOptions()` returns the options actually in use after locale negotiation. For `style: "currency"`, `minimumFractionDigits` and `maximumFractionDigits` default to the ISO 4217 minor-unit digits of the currency: 2 for EUR and USD, 0 for JPY, 3 for currencies such as BHD or KWD. The page notes that the values can be overridden by passing the options explicitly, and that `roundingMode` defaults to "halfExpand".';

/** Runs every tool except Task (the session runs subagents itself). */
export function runTool(env: ToolEnv, action: Exclude<ToolAction, { tool: 'Task' }>): ToolOutcome {
  const { rng, project } = env;
  switch (action.tool) {
    case 'Read': {
      const content = readProjectFile(project, action.path);
      const numLines = content.split('\n').length - 1;
      return {
        name: 'Read',
        input: { file_path: abs(action.path) },
        content: `${formatNumbered(content)}${READ_REMINDER}`,
        toolUseResult: {
          type: 'text',
          file: { filePath: abs(action.path), content, numLines, startLine: 1, totalLines: numLines },
        },
        isError: false,
        executionMs: rng.int(20, 180),
      };
    }
    case 'Write': {
      const existed = project.files.has(action.path);
      const revision = (project.revisions.get(action.path) ?? 0) + 1;
      const content =
        action.path === 'scripts/gen-journal.mjs'
          ? GEN_JOURNAL_SCRIPT
          : synthesizeFile(project.seed, getFileSpec(action.path), revision, project.scale);
      writeProjectFile(project, action.path, content);
      return {
        name: 'Write',
        input: { file_path: abs(action.path), content },
        content: existed
          ? `The file ${abs(action.path)} has been updated successfully.`
          : `File created successfully at: ${abs(action.path)}`,
        toolUseResult: {
          type: existed ? 'update' : 'create',
          filePath: abs(action.path),
          content,
          structuredPatch: [],
        },
        isError: false,
        executionMs: rng.int(10, 60),
        changed: action.path,
      };
    }
    case 'Edit': {
      const original = readProjectFile(project, action.path);
      const span = createEditSpan(rng, original, action.path, maxLines(project, action.path));
      const input = {
        file_path: abs(action.path),
        old_string: span.oldString,
        new_string: span.newString,
        replace_all: false,
      };
      if (action.miss) {
        // The model quoted the line with different indentation: Claude Code's exact-match check fails.
        const missed = span.oldString.replace(/^ {2}/gm, '    ');
        const message = `String to replace not found in file.\nString: ${missed}`;
        return {
          name: 'Edit',
          input: { ...input, old_string: missed },
          content: `<tool_use_error>${message}</tool_use_error>`,
          toolUseResult: `Error: ${message}`,
          isError: true,
          executionMs: rng.int(5, 20),
        };
      }
      if (action.reject) {
        const message =
          "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
        return {
          name: 'Edit',
          input,
          content: message,
          toolUseResult: `Error: ${message}`,
          isError: true,
          executionMs: rng.int(4000, 20000),
        };
      }
      const updated = original.replace(span.oldString, span.newString);
      writeProjectFile(project, action.path, updated);
      return {
        name: 'Edit',
        input,
        content: `The file ${abs(action.path)} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${editedSnippet(updated, span)}`,
        toolUseResult: {
          filePath: abs(action.path),
          oldString: span.oldString,
          newString: span.newString,
          originalFile: original,
          structuredPatch: structuredPatch(span, original),
          userModified: false,
          replaceAll: false,
        },
        isError: false,
        executionMs: rng.int(10, 60),
        changed: action.path,
      };
    }
    case 'MultiEdit': {
      const original = readProjectFile(project, action.path);
      let updated = original;
      const edits: JsonObject[] = [];
      const patches: JsonObject[] = [];
      for (let i = 0; i < 3; i++) {
        const span = createEditSpan(rng, updated, action.path, maxLines(project, action.path));
        const renamed = span.oldString.includes('formatAmount')
          ? span.oldString.replaceAll('formatAmount', 'formatPlain')
          : span.newString;
        const next = { ...span, newString: renamed };
        patches.push(...structuredPatch(next, updated));
        updated = updated.replace(next.oldString, next.newString);
        edits.push({ old_string: next.oldString, new_string: next.newString, replace_all: false });
      }
      writeProjectFile(project, action.path, updated);
      const listing = edits
        .map(
          (e, i) =>
            `${i + 1}. Replaced "${String(e.old_string).slice(0, 50)}..." with "${String(e.new_string).slice(0, 50)}..."`,
        )
        .join('\n');
      return {
        name: 'MultiEdit',
        input: { file_path: abs(action.path), edits },
        content: `Applied ${edits.length} edits to ${abs(action.path)}:\n${listing}`,
        toolUseResult: {
          filePath: abs(action.path),
          edits,
          originalFileContents: original,
          structuredPatch: patches,
          userModified: false,
        },
        isError: false,
        executionMs: rng.int(10, 80),
        changed: action.path,
      };
    }
    case 'Grep': {
      const names = exportedNames(readProjectFile(project, action.path));
      const pattern = names.length > 0 ? rng.pick(names) : 'parseJournal';
      const hits: string[] = [];
      const filenames: string[] = [];
      for (const [path, content] of project.files) {
        const lines = content.split('\n');
        let found = false;
        lines.forEach((line, i) => {
          if (line.includes(pattern)) {
            hits.push(`${path}:${i + 1}:${line}`);
            found = true;
          }
        });
        if (found) filenames.push(path);
      }
      if (rng.chance(0.5)) {
        return {
          name: 'Grep',
          input: { pattern, path: PROJECT_CWD, output_mode: 'files_with_matches' },
          content: filenames.length
            ? `Found ${filenames.length} files\n${filenames.map(abs).join('\n')}`
            : 'No files found',
          toolUseResult: {
            mode: 'files_with_matches',
            filenames: filenames.map(abs),
            numFiles: filenames.length,
          },
          isError: false,
          executionMs: rng.int(20, 120),
        };
      }
      const content = hits.length ? hits.join('\n') : 'No matches found';
      return {
        name: 'Grep',
        input: { pattern, path: PROJECT_CWD, output_mode: 'content', '-n': true },
        content,
        toolUseResult: {
          mode: 'content',
          numFiles: filenames.length,
          filenames: [],
          content,
          numLines: hits.length,
        },
        isError: false,
        executionMs: rng.int(20, 120),
      };
    }
    case 'Glob': {
      const filenames = [...project.files.keys()]
        .filter((p) => p.startsWith('src/') && p.endsWith('.ts'))
        .map(abs);
      return {
        name: 'Glob',
        input: { pattern: action.pattern },
        content: filenames.length ? filenames.join('\n') : 'No files found',
        toolUseResult: {
          filenames,
          durationMs: rng.int(5, 60),
          numFiles: filenames.length,
          truncated: false,
        },
        isError: false,
        executionMs: rng.int(5, 60),
      };
    }
    case 'Bash':
      return runBash(env, action.run);
    case 'TodoWrite':
      return todoWrite(env, action.step);
    case 'WebFetch': {
      const durationMs = rng.int(1800, 5200);
      return {
        name: 'WebFetch',
        input: {
          url: WEBFETCH_URL,
          prompt:
            'What does resolvedOptions() return for minimumFractionDigits with style currency, e.g. for JPY and EUR?',
        },
        content: WEBFETCH_ANSWER,
        toolUseResult: {
          bytes: 184_213,
          code: 200,
          codeText: 'OK',
          result: WEBFETCH_ANSWER,
          durationMs,
          url: WEBFETCH_URL,
        },
        isError: false,
        executionMs: durationMs,
      };
    }
  }
}
