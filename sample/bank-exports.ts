// The sample's bank-exports turn: three CSV files read in one call, once per session before the
// first auto-compaction, sized so that the pending estimate carries the count over the threshold.

import { countTokens } from './accounting';
import type { CallPlan } from './plan';
import type { Rng } from './prng';
import { CATEGORIES, PAYEES } from './project';
import type { SessionSim } from './session-sim';
import type { PromptSpec } from './story';

/**
 * Bank exports read in one call, once per session before the first auto-compaction: started when
 * the usage is this close below the warning threshold, sized so that the pending estimate carries
 * the count over the auto-compact threshold. With microcompact on, the context otherwise never
 * reaches it (each crossing of the warning threshold clears old results instead).
 */
const EXPORT_READ_BELOW_WARNING_TOKENS = 8_000;
/** How far past the auto-compact threshold the exports carry the count. */
const EXPORT_READ_MARGIN_TOKENS = 1_500;
/** Read's line limit (Claude Code reads at most 2,000 lines without offset / limit). */
const READ_MAX_LINES = 2_000;

/** Once, before the first auto-compaction (after the first microcompaction when there is one). */
export function shouldReadExports(sim: SessionSim): boolean {
  if (!sim.features.specials || sim.exportsRead || sim.autoCompactions > 0) return false;
  if (sim.features.microcompact && sim.microCall === undefined) return false;
  const usage = sim.acct.lastContext + sim.acct.lastOutput;
  return usage >= sim.model.thresholds.warning - EXPORT_READ_BELOW_WARNING_TOKENS;
}

/** The exports turn: three CSV files read in parallel, sized to carry the count over the threshold. */
export function planExportRead(sim: SessionSim): CallPlan[] {
  sim.exportsRead = true;
  const request = sim.acct.ctx + countTokens(EXPORTS_SPEC.text) + 6;
  const need = sim.model.thresholds.autoCompact + EXPORT_READ_MARGIN_TOKENS - request - sim.acct.lastOutput;
  const paths = EXPORT_FILES.map((f) => f.path);
  paths.forEach((path, i) => {
    const content = createBankExport(sim.rng, EXPORT_FILES[i] as ExportFile, Math.ceil(need / paths.length));
    sim.project.files.set(path, content);
    sim.project.revisions.set(path, 1);
  });
  return [
    {
      thinking: EXPORTS_SPEC.plan,
      text: "I'll read all three exports at once.",
      tools: paths.map((path) => ({ tool: 'Read' as const, path })),
    },
    { text: EXPORTS_SPEC.done, tools: [] },
  ];
}

interface ExportFile {
  path: string;
  bank: string;
  currency: string;
}

const EXPORT_FILES: readonly ExportFile[] = [
  { path: 'data/exports/girokonto-2025.csv', bank: 'Girokonto', currency: 'EUR' },
  { path: 'data/exports/credit-card-2025.csv', bank: 'Credit card', currency: 'EUR' },
  { path: 'data/exports/savings-usd-2025.csv', bank: 'Savings', currency: 'USD' },
];

/** A bank's CSV export whose Read result is about `estimateTokens` (Claude Code's estimate), at most 2,000 lines. */
function createBankExport(rng: Rng, file: ExportFile, estimateTokens: number): string {
  const lines = ['date;payee;memo;amount;currency;balance'];
  let chars = 0;
  let balance = rng.int(800_00, 4_000_00);
  for (let day = 0; chars < estimateTokens * 4 && lines.length < READ_MAX_LINES; day++) {
    const date = new Date(Date.UTC(2025, 0, 1) + Math.floor(day / 6) * 86_400_000).toISOString().slice(0, 10);
    const cents = -rng.int(150, 18_000) * (rng.chance(0.08) ? -12 : 1);
    balance += cents;
    const amount = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
    const line = `${date};${rng.pick(PAYEES)};${file.bank} ${rng.pick(CATEGORIES)};${amount};${file.currency};${(balance / 100).toFixed(2)}`;
    lines.push(line);
    // `formatNumbered` prefixes each line with its number and an arrow (7 characters).
    chars += line.length + 8;
  }
  return `${lines.join('\n')}\n`;
}

/** The user's bank exports, read in one go (see EXPORT_READ_BELOW_WARNING_TOKENS). */
export const EXPORTS_SPEC: PromptSpec = {
  text: "I dropped last year's bank exports into data/exports/. Read all three and tell me what an importer would have to handle before we write one.",
  intent: 'Survey the 2025 bank exports in data/exports/ before writing an importer',
  concepts: ['bank CSV exports: semicolon separators, decimal commas, one currency per file'],
  plan: 'Three CSV exports, one per account. I should read them side by side to compare the columns, separators and number formats before designing an importer.',
  done: 'All three exports share one layout: `date;payee;memo;amount;currency;balance`, semicolon-separated, with decimal commas in `amount` and decimal points in `balance`. The savings account is in USD, the others in EUR. An importer has to map the memo to a category, convert the decimal commas, and check the running balance against the journal. Refunds show up as positive amounts.',
};
