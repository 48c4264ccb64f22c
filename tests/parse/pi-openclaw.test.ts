import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeConversation } from '../../src/engine/query/conversation';
import { formatTranscriptHtml, formatTranscriptMarkdown } from '../../src/engine/export/transcript-export';
import { parseSession } from '../../src/engine/parse/parse-session';
import { REAL_LOGS } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// OpenClaw keeps its sessions in pi's format (normalizer.ts) and writes its own replies to a chat
// command as assistant messages of model "gateway-injected": no request was made. Real sessions of
// adrianstanca1/vps-config (restored by scripts/restore-real-logs.mjs); a plain count of their
// lines is the reference. 58d6dd28 read 2 API calls of context 0 and "gateway-injected" among its
// models.

const SESSIONS = join(REAL_LOGS, 'adrianstanca1__vps-config/.openclaw/agents/main/sessions');
const present = existsSync(SESSIONS);
if (!present) console.warn(`the OpenClaw session test is skipped: ${SESSIONS} is not restored`);

interface Line {
  type?: string;
  message?: { role?: string; model?: string; stopReason?: string; usage?: Record<string, number> };
}

/** Assistant messages by what they are: injected by the gateway, failed (error, no usage), answered. */
function plainCount(file: string) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
  const answers = lines.filter((l) => l.type === 'message' && l.message?.role === 'assistant');
  const injected = answers.filter((l) => l.message?.model === 'gateway-injected').length;
  const failed = answers.filter((l) => l.message?.stopReason === 'error').length;
  return { records: lines.length, injected, failed, calls: answers.length - injected - failed };
}

describe.skipIf(!present)('pi: real OpenClaw sessions', () => {
  it.each([
    ['58d6dd28-b055-4727-b9a3-ad1a5109e756.jsonl', { records: 10, injected: 2, failed: 1, calls: 0 }],
    ['251d51b3-d4a6-491e-896a-3a0a2918056b.jsonl', { records: 161, injected: 0, failed: 4, calls: 67 }],
  ])('%s: gateway-injected replies are no API call', async (name, count) => {
    const file = join(SESSIONS, name);
    expect(plainCount(file)).toEqual(count);
    const session = await parseSession([createNodeFileSource(file)]);
    expect(session.entries.length).toBe(count.records);
    expect(session.apiCalls.length).toBe(count.calls);
    expect(session.failedRequests?.length ?? 0).toBe(count.failed);
    expect(session.meta.models).not.toContain('gateway-injected');
    expect(session.issues).toEqual([]);
  });
});

// Sessions whose only request failed read "models ?" in inspect and no model in the page's header,
// though their `model_change` set the model: they now say it, as set (no call answered).
describe.skipIf(!present)('pi: a session whose only request failed names the model it was set to', () => {
  /** The `model_change` records' models, in order (the plain count). */
  const setByLog = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { type?: string; modelId?: string })
      .filter((l) => l.type === 'model_change')
      .map((l) => l.modelId);

  it.each([
    '58d6dd28-b055-4727-b9a3-ad1a5109e756.jsonl',
    '00cf3368-0947-47f3-8126-82335a943532.jsonl',
    'd64f86b1-c58c-4807-b345-69a2b15d21ac.jsonl',
  ])('%s', async (name) => {
    const file = join(SESSIONS, name);
    expect(setByLog(file)).toEqual(['llama3.1:8b']);
    const session = await parseSession([createNodeFileSource(file)]);
    expect(session.apiCalls).toHaveLength(0);
    expect(session.failedRequests?.length).toBeGreaterThan(0);
    expect(session.meta.models).toEqual([]);
    expect(session.meta.setModels).toEqual(['llama3.1:8b']);
    const out = await runCli(['inspect', file]);
    expect(out.text.split('\n')[1]).toBe(
      '  agent pi session v3 · models llama3.1:8b (set; no call answered)',
    );
    // The exports say it too (they said "models ?" and "no model named"), in the JSON as its own field.
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-pi-set-'));
    await runCli(['export', file, '--md', '-o', join(dir, 's.md')]);
    expect(readFileSync(join(dir, 's.md'), 'utf8')).toContain(
      'pi session v3 · models llama3.1:8b (set; no call answered) · 0 summaries',
    );
    await runCli(['export', file, '--json', '-o', join(dir, 's.json')]);
    expect(JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')).transcript).toMatchObject({
      models: [],
      setModels: ['llama3.1:8b'],
    });
    const header = { name, agent: 'pi', models: session.meta.models, setModels: session.meta.setModels };
    const turns = computeConversation(session);
    expect(formatTranscriptMarkdown(header, turns)).toContain('pi · llama3.1:8b (set; no call answered) ·');
    expect(formatTranscriptHtml(header, turns)).toContain('pi · llama3.1:8b (set; no call answered) ·');
  });

  it('a session whose calls answered lists those models only', async () => {
    const session = await parseSession([
      createNodeFileSource(join(SESSIONS, '251d51b3-d4a6-491e-896a-3a0a2918056b.jsonl')),
    ]);
    expect(session.meta.models.length).toBeGreaterThan(0);
    expect(session.meta.setModels).toBeUndefined();
  });
});
