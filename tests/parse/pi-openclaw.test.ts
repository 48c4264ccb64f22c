import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { REAL_LOGS } from '../helpers/corpus';

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
