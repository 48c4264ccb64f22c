// The compaction summary (docs/sources.md#fmt-summary-message) and the compaction call's prompt and answer
// (docs/sources.md#fmt-around-compaction), written from what the simulated session actually did. The nine sections
// are the ones Claude Code's compaction prompt asks for
// (docs/sources.md#ccs-summary-message).

import { PROJECT_CWD, PROJECT_DIR } from './project-files';

/** 2.1.x opening line of every compaction summary (docs/sources.md#fmt-summary-message). */
const SUMMARY_PREFIX =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

/** Appended to auto-compaction summaries so the model resumes without asking. */
const CONTINUE_INSTRUCTION =
  'Please continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.';

/** Opening of the compaction prompt (docs/sources.md#fmt-around-compaction quotes its first sentence). */
const COMPACTION_PROMPT_HEAD =
  "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.\nThis summary should be thorough in capturing technical details, code patterns, and architectural decisions that would be essential for continuing development work without losing context.";

export interface WorkLog {
  userMessages: string[];
  intents: string[];
  concepts: string[];
  files: Map<string, { purpose: string; action: 'created' | 'modified' | 'read'; snippet: string }>;
  errors: { what: string; fix: string }[];
  pendingTodos: string[];
  currentWork: string;
  nextStep: string;
  lastUserMessage: string;
}

export function createWorkLog(): WorkLog {
  return {
    userMessages: [],
    intents: [],
    concepts: [],
    files: new Map(),
    errors: [],
    pendingTodos: [],
    currentWork: '',
    nextStep: '',
    lastUserMessage: '',
  };
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/** The nine numbered sections, as they appear after "Summary:". */
function formatSummarySections(log: WorkLog, customInstructions?: string): string {
  const out: string[] = [];
  out.push(
    '1. Primary Request and Intent:',
    '   The user is building `tally`, a dependency-free TypeScript CLI (Node 22, ESM, vitest) that reads plain-text, ledger-like expense journals and prints balances, periodic reports and exports. Requests so far, in order:',
    ...log.intents.map((i) => `   - ${i}`),
  );
  if (customInstructions) out.push(`   The user asked for this summary to ${customInstructions}.`);
  out.push('', '2. Key Technical Concepts:', ...log.concepts.map((c) => `   - ${c}`));
  out.push('', '3. Files and Code Sections:');
  for (const [path, f] of log.files) {
    out.push(`   - ${PROJECT_CWD}/${path}`, `     - ${f.purpose} (${f.action}).`);
    if (f.snippet && f.action !== 'read') {
      const lang = path.endsWith('.ts') ? 'ts' : path.endsWith('.json') ? 'json' : '';
      out.push(
        '     - Key code:',
        `       \`\`\`${lang}`,
        ...f.snippet.split('\n').map((l) => `       ${l}`),
        '       ```',
      );
    }
  }
  out.push(
    '',
    '4. Errors and fixes:',
    ...(log.errors.length
      ? log.errors.map((e) => `   - ${e.what}:\n     - Fix: ${e.fix}`)
      : ['   - None so far.']),
  );
  out.push(
    '',
    '5. Problem Solving:',
    '   Parsing is line-based with panic-mode recovery at the next date line, so one bad line costs at most one transaction. Money stays in bigint minor units end to end; every fix above was pinned with a regression test before the change.',
  );
  out.push('', '6. All user messages:', ...log.userMessages.map((m) => `   - "${clip(m, 400)}"`));
  out.push(
    '',
    '7. Pending Tasks:',
    ...(log.pendingTodos.length
      ? log.pendingTodos.map((t) => `   - ${t}`)
      : ['   - None explicitly requested beyond the current work.']),
  );
  out.push('', '8. Current Work:', `   ${log.currentWork}`);
  out.push(
    '',
    '9. Optional Next Step:',
    `   ${log.nextStep} This follows the most recent request: "${clip(log.lastUserMessage, 300)}"`,
  );
  return out.join('\n');
}

/** The `isCompactSummary` user message content (always a string). */
export function formatCompactSummary(
  log: WorkLog,
  sessionId: string,
  trigger: 'auto' | 'manual',
  customInstructions?: string,
): string {
  const parts = [
    SUMMARY_PREFIX,
    '',
    'Summary:',
    formatSummarySections(log, customInstructions),
    '',
    `If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: ${PROJECT_DIR}/${sessionId}.jsonl`,
  ];
  if (trigger === 'auto') parts.push(CONTINUE_INSTRUCTION);
  return parts.join('\n');
}

/** The compaction call's prompt (first line of the acompact file). */
export function formatCompactionPrompt(customInstructions?: string): string {
  const lines = [
    COMPACTION_PROMPT_HEAD,
    '',
    'Before providing your final summary, wrap your analysis in <analysis> tags to organize your thoughts and ensure you have covered all necessary points.',
    '',
    'Your summary should include the following sections:',
    '',
    '1. Primary Request and Intent',
    '2. Key Technical Concepts',
    '3. Files and Code Sections',
    '4. Errors and fixes',
    '5. Problem Solving',
    '6. All user messages',
    '7. Pending Tasks',
    '8. Current Work',
    '9. Optional Next Step',
  ];
  if (customInstructions) lines.push('', `Additional Instructions:\n${customInstructions}`);
  return lines.join('\n');
}

/** The compaction call's answer: an <analysis> pass, then the summary proper. */
export function formatCompactionAnswer(log: WorkLog, customInstructions?: string): string {
  const analysis = [
    'Let me go through the conversation chronologically.',
    '',
    ...log.intents.map((intent, i) => `${i + 1}. ${intent}.`),
    '',
    `Files touched: ${[...log.files.keys()].join(', ')}.`,
    `Errors hit: ${log.errors.length}. The most recent work: ${log.currentWork}`,
  ].join('\n');
  return `<analysis>\n${analysis}\n</analysis>\n\n<summary>\n${formatSummarySections(log, customInstructions)}\n</summary>`;
}
