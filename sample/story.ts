// What the simulated developer asks for, prompt by prompt, while building `tally`. Each prompt
// names the files the work touches and, where the session should show something particular
// (a pasted image, a subagent, a rejected edit, a retried API call), a `special` marker.
// `generate-session.ts` turns a prompt into API calls and tool results. The scripted prompts are in
// story-prompts.ts; this file holds their shape and the follow-ups typed after them.

import { CATEGORIES, PAYEES } from './project';
import type { Rng } from './prng';

type Special =
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
