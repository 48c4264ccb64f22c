// Turns one prompt of the story into the API calls an agent would make for it: what each call
// thinks, says and which tools it uses. Only the shape of the work is decided here; tool
// inputs and outputs are produced against the project state in `tools.ts`.

import type { Rng } from './prng';
import type { PromptSpec } from './story';

export type BashRun =
  | 'ls'
  | 'install'
  | 'test'
  | 'test-fail'
  | 'tsc'
  | 'lint'
  | 'git-status'
  | 'git-branch'
  | 'git-commit'
  | 'report'
  | 'gen-big'
  | 'time-report'
  | 'export-big';

export type ToolAction =
  | { tool: 'Read'; path: string }
  | { tool: 'Write'; path: string }
  | { tool: 'Edit'; path: string; miss?: boolean; reject?: boolean; fix?: boolean }
  | { tool: 'MultiEdit'; path: string }
  | { tool: 'Grep'; path: string }
  | { tool: 'Glob'; pattern: string }
  | { tool: 'Bash'; run: BashRun }
  | { tool: 'TodoWrite'; step: 'start' | 'progress' | 'done' }
  | { tool: 'Task' }
  | { tool: 'WebFetch' };

export interface CallPlan {
  thinking?: string;
  text?: string;
  tools: ToolAction[];
}

const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** A short line the assistant writes before using a tool. */
function narrate(rng: Rng, action: ToolAction): string {
  switch (action.tool) {
    case 'Read':
      return rng.pick([
        `Let me look at \`${base(action.path)}\` first.`,
        `Reading \`${action.path}\`.`,
        `Let me check the current state of \`${base(action.path)}\`.`,
      ]);
    case 'Write':
      return rng.pick([`Now I'll create \`${action.path}\`.`, `Writing \`${base(action.path)}\`.`]);
    case 'Edit':
    case 'MultiEdit':
      return action.tool === 'Edit' && action.fix
        ? `Found it. Fixing \`${base(action.path)}\`.`
        : rng.pick([
            `Now let me update \`${base(action.path)}\`.`,
            `I'll make the change in \`${base(action.path)}\`.`,
          ]);
    case 'Grep':
      return 'Let me find where this is used.';
    case 'Glob':
      return 'Let me see which source files exist.';
    case 'Bash':
      return action.run === 'test' || action.run === 'test-fail'
        ? rng.pick(['Now let me run the tests.', 'Running the test suite.'])
        : action.run === 'tsc'
          ? 'And the type checker.'
          : 'Let me run that.';
    case 'TodoWrite':
      return '';
    case 'Task':
      return "I'll have an Explore agent trace this so the file contents stay out of our context.";
    case 'WebFetch':
      return 'Let me check the MDN page on `resolvedOptions()` first.';
  }
}

/** Short reasoning between steps, shown in thinking blocks after the first call of a turn. */
function reflect(rng: Rng, action: ToolAction, spec: PromptSpec): string | undefined {
  if (action.tool === 'Edit' && action.fix && spec.failFirst) {
    return `The failing case is "${spec.failFirst.name}": expected ${spec.failFirst.expected} but got ${spec.failFirst.received}. Looking at the code again, ${spec.failFirst.fix}.`;
  }
  if (action.tool === 'Bash' && action.run === 'test') {
    return rng.pick([
      'The change is in place. Run the whole suite rather than one file, the lexer and parser tests share fixtures.',
      'That should cover it. Let me verify with the tests before moving on.',
    ]);
  }
  if (action.tool === 'Edit' || action.tool === 'MultiEdit') {
    return rng.pick([
      `I have what I need from ${base(action.path)}. The change should be local; nothing else calls this helper with a different shape.`,
      `The existing code in ${base(action.path)} already threads the line number through, so the diagnostic can reuse it.`,
      `Keep the edit minimal: the public signature stays the same, only the body changes.`,
    ]);
  }
  if (action.tool === 'Read' || action.tool === 'Grep') {
    return rng.pick([
      'Let me check how the callers use this before changing anything.',
      'Before editing, I want to see the code that covers this path.',
    ]);
  }
  return undefined;
}

/**
 * The calls for one prompt. `exists` tells whether a file has been written yet; `budget` caps
 * the number of calls (the last one is always the closing text).
 */
export function buildPlan(
  rng: Rng,
  spec: PromptSpec,
  exists: (path: string) => boolean,
  specials: boolean,
  budget: number,
): CallPlan[] {
  const has = (s: string): boolean => specials && (spec.special?.includes(s as never) ?? false);
  const calls: CallPlan[] = [];
  const todos = (spec.todos?.length ?? 0) > 0;
  const first: CallPlan = { thinking: spec.plan, tools: [] };
  calls.push(first);
  if (todos) first.tools.push({ tool: 'TodoWrite', step: 'start' });

  if (spec.creates?.includes('package.json')) calls.push({ tools: [{ tool: 'Bash', run: 'ls' }] });
  if (has('webfetch')) calls.push({ tools: [{ tool: 'WebFetch' }] });
  if (/\blint\b/.test(spec.text)) calls.push({ tools: [{ tool: 'Bash', run: 'lint' }] });
  if (has('task')) calls.push({ tools: [{ tool: 'Task' }] });
  if (has('branch'))
    calls.push(
      { tools: [{ tool: 'Bash', run: 'git-status' }] },
      { tools: [{ tool: 'Bash', run: 'git-branch' }] },
    );

  const reads = [...new Set([...(spec.reads ?? []), ...(spec.edits ?? [])])].filter(exists).slice(0, 2);
  if (reads.length > 0) calls.push({ tools: reads.map((path) => ({ tool: 'Read' as const, path })) });
  if (spec.edits && spec.edits.length > 0 && rng.chance(0.8))
    calls.push({ tools: [{ tool: 'Grep', path: spec.edits[0] as string }] });
  if (rng.chance(0.15)) calls.push({ tools: [{ tool: 'Glob', pattern: 'src/**/*.ts' }] });

  for (const path of spec.creates ?? []) {
    calls.push({ tools: [exists(path) ? { tool: 'Edit', path } : { tool: 'Write', path }] });
  }
  if (spec.creates?.includes('package.json')) calls.push({ tools: [{ tool: 'Bash', run: 'install' }] });

  (spec.edits ?? []).forEach((path, i) => {
    if (i === 0 && has('edit-miss')) {
      calls.push({ tools: [{ tool: 'Edit', path, miss: true }] }, { tools: [{ tool: 'Read', path }] });
    }
    if (i === 0 && has('reject')) calls.push({ tools: [{ tool: 'Edit', path, reject: true }] });
    calls.push({
      tools: [i === 0 && has('multiedit') ? { tool: 'MultiEdit', path } : { tool: 'Edit', path }],
    });
    // A change is usually made in two edits: the code, then its call site or a guard.
    if (rng.chance(0.5)) calls.push({ tools: [{ tool: 'Edit', path }] });
    if (todos && i === 0) calls.push({ tools: [{ tool: 'TodoWrite', step: 'progress' }] });
  });

  if (spec.test) {
    if (exists(spec.test)) {
      // Not every change gets a new test case; a regression fix always does.
      if (spec.failFirst || rng.chance(0.4)) {
        calls.push(
          { tools: [{ tool: 'Read', path: spec.test }] },
          { tools: [{ tool: 'Edit', path: spec.test }] },
        );
      }
    } else {
      calls.push({ tools: [{ tool: 'Write', path: spec.test }] });
    }
  }
  if (spec.test || (spec.edits?.length ?? 0) > 0) {
    if (spec.failFirst) {
      const target =
        spec.edits?.[0] ?? spec.creates?.find((p) => p.startsWith('src/')) ?? 'src/journal/parser.ts';
      calls.push(
        { tools: [{ tool: 'Bash', run: 'test-fail' }] },
        { tools: [{ tool: 'Read', path: target }] },
        { tools: [{ tool: 'Edit', path: target, fix: true }] },
      );
    }
    calls.push({ tools: [{ tool: 'Bash', run: 'test' }] });
    if (rng.chance(0.6)) calls.push({ tools: [{ tool: 'Bash', run: 'tsc' }] });
  }
  if (has('persisted')) {
    calls.push(
      { tools: [{ tool: 'Write', path: 'scripts/gen-journal.mjs' }] },
      { tools: [{ tool: 'Bash', run: 'gen-big' }] },
      { tools: [{ tool: 'Bash', run: 'time-report' }] },
      { tools: [{ tool: 'Bash', run: 'export-big' }] },
    );
  }
  if (spec.special?.includes('commit')) {
    calls.push({ tools: [{ tool: 'Bash', run: 'lint' }] }, { tools: [{ tool: 'Bash', run: 'git-commit' }] });
  }
  if (todos) calls.push({ tools: [{ tool: 'TodoWrite', step: 'done' }] });
  if (!spec.test && !spec.edits?.length && !spec.creates?.length && !has('task') && !has('persisted')) {
    calls.push({ tools: [{ tool: 'Bash', run: 'report' }] });
  }

  // Narration and short reasoning on the later calls, as real transcripts have on about half.
  for (const call of calls.slice(1)) {
    const action = call.tools[0];
    if (!action) continue;
    if (rng.chance(0.25) || (action.tool === 'Edit' && action.fix))
      call.thinking = reflect(rng, action, spec);
    if (rng.chance(0.4) || action.tool === 'Task') {
      const text = narrate(rng, action);
      if (text) call.text = text;
    }
  }
  first.text = rng.pick([
    "I'll start by looking at what is there.",
    'Let me work through this step by step.',
    "Sure. I'll set up a todo list and work through it.",
    'Let me take a look.',
  ]);

  const closing: CallPlan = { text: spec.done, tools: [] };
  const max = Math.max(2, budget);
  if (calls.length + 1 > max) calls.length = max - 1;
  calls.push(closing);
  return calls;
}
