import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { getPrintableUrl } from '../../engine/redact/printable-url';
import type { SettingsModel } from '../../engine/stats/setting-rows';
import type { Summarizer } from '../../engine/summarize/types';
import { startWaitNotice } from '../wait-notice';

// `stats --strategy … --retention --retention-summarizer anthropic|openai`: the retention scored on
// a model's summaries. The keys come from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY) and
// are never printed: every message is masked. A plan pass counts the calls (answers already in
// the cache replayed, the others answered by a stand-in) and says what they will cost; only `--yes` makes them.
// Answers are cached on disk by request hash, so a second run makes no call.

interface ModelRetentionOptions {
  kind: 'anthropic' | 'openai';
  model: string;
  baseUrl?: string;
  cacheDir: string;
  /** Make the calls (without it: the plan only). */
  yes: boolean;
}

/** The options given, or an error; undefined when the built-in summarizer scores (the default). */
export function parseModelRetention(
  values: Record<string, unknown>,
): ModelRetentionOptions | string | undefined {
  const kind = values['retention-summarizer'];
  if (kind === undefined || kind === 'builtin') return undefined;
  if (kind !== 'anthropic' && kind !== 'openai')
    return `unknown --retention-summarizer "${String(kind)}" (builtin, anthropic or openai)`;
  if (values.retention !== true) return '--retention-summarizer needs --retention';
  if (kind === 'anthropic' && !process.env.ANTHROPIC_API_KEY)
    return '--retention-summarizer anthropic needs ANTHROPIC_API_KEY in the environment';
  const model = values['retention-model'];
  if (typeof model !== 'string' || model.trim() === '')
    return `--retention-summarizer ${kind} needs --retention-model <id>`;
  const cache = values['summary-cache'];
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return {
    kind,
    model,
    baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : undefined,
    cacheDir: typeof cache === 'string' ? cache : join(base, 'compactlab', 'summaries'),
    yes: values.yes === true,
  };
}

/** Every configured key masked out of a text that is printed. */
function maskKeys(text: string): string {
  let out = text;
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']) {
    const key = process.env[name];
    if (key) out = out.split(key).join('[REDACTED:env-secret]');
  }
  return out;
}

/** Where an answer is cached: by summarizer (kind, printable URL) and request hash. */
function cachePath(options: ModelRetentionOptions, hash: string): string {
  const who = `${options.kind}|${getPrintableUrl(options.baseUrl ?? '')}|${hash}`;
  return join(options.cacheDir, `${createHash('sha256').update(who).digest('hex')}.txt`);
}

function readCached(options: ModelRetentionOptions, hash: string): string | undefined {
  try {
    return readFileSync(cachePath(options, hash), 'utf8');
  } catch {
    return undefined;
  }
}

function writeCached(options: ModelRetentionOptions, hash: string, text: string): void {
  const path = cachePath(options, hash);
  mkdirSync(options.cacheDir, { recursive: true });
  // Written whole then renamed: a run stopped mid-write leaves no half answer.
  writeFileSync(`${path}.part`, text);
  renameSync(`${path}.part`, path);
}

export interface ModelPlan {
  /** Distinct requests to send. */
  calls: number;
  /** Answered by the cache, or by a call of this run made for the same request. */
  cached: number;
  inputTokens: number;
  inputUsd?: number;
}

/** A plan pass's model: cached answers replayed, the others counted and answered by a stand-in. */
export function createPlanModel(options: ModelRetentionOptions, plan: ModelPlan): SettingsModel {
  // A request seen before in this pass (two settings compacting alike) is answered by that call.
  const counted = new Set<string>();
  return {
    model: options.model,
    summarize: async (_request, info) => {
      const cached = readCached(options, info.hash);
      // A stand-in per request: chains that differ go on differing, as their real answers will.
      const standIn = `[summary of request ${info.hash}]`;
      if (cached !== undefined || counted.has(info.hash)) {
        plan.cached++;
        return cached ?? standIn;
      }
      counted.add(info.hash);
      plan.calls++;
      plan.inputTokens += info.estimatedTokens;
      if (info.estimatedInputUsd !== undefined) plan.inputUsd = (plan.inputUsd ?? 0) + info.estimatedInputUsd;
      return standIn;
    },
  };
}

/** The plan in words, for stderr. */
export function describePlan(options: ModelRetentionOptions, plan: ModelPlan): string {
  if (plan.calls === 0)
    return `no summary call to make: the ${plan.cached} answers are in the cache (${options.cacheDir})`;
  const where =
    options.kind === 'anthropic'
      ? 'the Anthropic API'
      : getPrintableUrl(options.baseUrl ?? 'the local server');
  const usd =
    plan.inputUsd === undefined
      ? `no list price for ${options.model}`
      : `≈ $${plan.inputUsd.toFixed(4)} of input at list price`;
  return `${plan.calls} summary calls to ${options.model} (${where}): ≈ ${plan.inputTokens} input tokens, ${usd}; ${plan.cached} more answered from the cache (${options.cacheDir}) or by the same request's call`;
}

/** A run's model: the cache, else the call; each call and each failure said on stderr. */
export function createRunModel(
  options: ModelRetentionOptions,
  total: number,
  log: (line: string) => void,
  signal?: AbortSignal,
): SettingsModel & { failed: number } {
  let summarizer: Promise<Summarizer> | undefined;
  let made = 0;
  const state = {
    failed: 0,
    model: options.model,
    summarize: async (
      request: Parameters<SettingsModel['summarize']>[0],
      info: Parameters<SettingsModel['summarize']>[1],
    ) => {
      const cached = readCached(options, info.hash);
      if (cached !== undefined) return cached;
      summarizer ??= createSummarizer(options);
      made++;
      log(`summary call ${made}/${total}: ${info.file} · ${info.setting} · ${info.label}`);
      // What the call waits for (a hung server was silent), as lines: the progress shares stderr.
      const notice = startWaitNotice(`summary call ${made}/${total}: `, {
        tty: false,
        write: (text) => log(text.replace(/\n$/, '')),
      });
      try {
        const text = maskKeys(
          (await (await summarizer).summarize(request, { signal, onText: notice.onText })).text,
        );
        writeCached(options, info.hash, text);
        return text;
      } catch (e) {
        const error = maskKeys(e instanceof Error ? e.message : String(e));
        if (!signal?.aborted) {
          state.failed++;
          log(`${info.file} · ${info.setting} · ${info.label}: the call failed, not scored: ${error}`);
        }
        throw new Error(error);
      } finally {
        notice.end();
      }
    },
  };
  return state;
}

async function createSummarizer(options: ModelRetentionOptions): Promise<Summarizer> {
  if (options.kind === 'anthropic') {
    const { createAnthropicSummarizer } = await import('../../engine/summarize/anthropic');
    return createAnthropicSummarizer({
      apiKey: process.env.ANTHROPIC_API_KEY ?? '',
      baseUrl: options.baseUrl,
    });
  }
  const { createOpenAiSummarizer } = await import('../../engine/summarize/openai-compatible');
  return createOpenAiSummarizer({
    baseUrl: options.baseUrl,
    apiKey: process.env.OPENAI_API_KEY || undefined,
  });
}
