import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { findSecretsInText } from '../../src/engine/redact/find-secrets';
import { findProviderSecrets, listProviderRules } from '../../src/engine/redact/gitleaks-rules';
import { generateFromRegex, seededRandom } from './generate-secret';

// Issue 22, item 6: a secret of every kept gitleaks rule (a value generated from the rule's own
// pattern, in the rule's keyword context), unprefixed tokens and the shapes of item 4, planted in a
// copy of a real session: in the first user message with their context, bare (no context) in the
// log's compaction summary, and as a JSON key name in a tool call's input. None may survive any
// redacted export (compacted JSONL, summaries Markdown and JSON, the HTML report). The corpus text
// itself is read from ../shared at test time and never committed.

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');

/** The smallest main Claude Code session in the corpus with a compaction summary. */
function findSession(): string | undefined {
  if (!existsSync(CORPUS)) return undefined;
  const found: { path: string; bytes: number }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'foreign') continue;
      const s = statSync(path);
      if (s.isDirectory()) walk(path);
      else if (name.endsWith('.jsonl') && !name.includes('subagents') && s.size < 3_000_000) {
        found.push({ path, bytes: s.size });
      }
    }
  };
  walk(CORPUS);
  found.sort((a, b) => a.bytes - b.bytes);
  return found.find((f) => {
    const text = readFileSync(f.path, 'utf8');
    return text.includes('"isCompactSummary":true') && text.includes('"type":"assistant"');
  })?.path;
}

/** Values a rule cannot be generated for by `generateFromRegex` (its pattern spans YAML or XML). */
const HAND_WRITTEN: Record<string, string> = {
  'kubernetes-secret-yaml': 'kind: Secret\ndata:\n  password: c2VjcmV0UGFzc3dvcmQxMjM0NTY=\n',
  'nuget-config-password': '<add key="ClearTextPassword" value="Xq7mWz2LkP9v" />',
};

/** The fields of a transcript record this test plants into (real records hold more). */
interface SessionRecord {
  type?: string;
  isCompactSummary?: boolean;
  isMeta?: boolean;
  message: { content: string | { type: string; text?: string; input?: Record<string, unknown> }[] };
}

interface Plant {
  label: string;
  /** The line planted with its context. */
  line: string;
  /** What must not survive. */
  secret: string;
}

function makePlants(): Plant[] {
  const plants: Plant[] = [];
  for (const rule of listProviderRules()) {
    for (let seed = 1; seed < 30; seed++) {
      const value =
        HAND_WRITTEN[rule.id] ?? generateFromRegex(rule.regex, seededRandom(seed * 7919 + rule.id.length));
      const keyword = rule.keywords.some((k) => value.toLowerCase().includes(k))
        ? ''
        : `${rule.keywords[0] ?? ''} `;
      const line = `${keyword}${value} ok`;
      const hit = findProviderSecrets(line).find((p) => p.rule === rule.id);
      if (hit && findSecretsInText(line).length > 0) {
        plants.push({ label: rule.id, line, secret: line.slice(hit.start, hit.end) });
        break;
      }
    }
  }
  const random = seededRandom(22);
  const token = (n: number): string => {
    const abc = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
    let t = '';
    while (!/[a-z]/.test(t) || !/[A-Z]/.test(t) || !/\d/.test(t) || t.length < n) {
      t = Array.from({ length: n }, () => abc[Math.floor(random() * abc.length)]).join('');
    }
    return t;
  };
  const t = [token(32), token(24), token(40), token(28), token(36), token(40), token(30), token(26)];
  const shapes: [string, string, string][] = [
    ['unprefixed alone', t[0]!, t[0]!],
    ['unprefixed after token', `token ${t[1]}`, t[1]!],
    ['unprefixed after --access-token', `supabase login --access-token ${t[2]}`, t[2]!],
    ['Bearer', `Authorization: Bearer ${t[3]}`, t[3]!],
    ['X-API-Key header', `curl -H "X-API-Key: ${t[4]}" https://api.example.test`, t[4]!],
    ['Basic header', 'Authorization: Basic dXNlcjpodW50ZXIyLXBhc3N3b3Jk', 'dXNlcjpodW50ZXIyLXBhc3N3b3Jk'],
    ['aws configure set', `aws configure set aws_secret_access_key ${t[5]}Ab9/xY+z`, `${t[5]}Ab9/xY+z`],
    ['mysql -p', 'mysql -u root -pHunter2Secret9 mydb', 'Hunter2Secret9'],
    ['Slack webhook', `https://hooks.slack.com/services/T0123ABCD/B0123ABCD/${t[6]}`, t[6]!],
    [
      'Discord webhook',
      `https://discord.com/api/webhooks/123456789012345678/${t[2]}${t[4]}`,
      `${t[2]}${t[4]}`,
    ],
    ['Google ya29', `ya29.a0AfH6SM${t[7]}`, `ya29.a0AfH6SM${t[7]}`],
    ['Azure AccountKey', `AccountKey=${t[0]}${t[2]}==;EndpointSuffix=core.windows.net`, `${t[0]}${t[2]}==`],
    ['*_ACCESS_KEY=', `ACME_ACCESS_KEY=${t[5]}`, t[5]!],
    ['*_API_KEY=', `FOOBAR_API_KEY=${t[6]}q`, `${t[6]}q`],
    [
      'JWT wrapped',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4\n  gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    ],
  ];
  for (const [label, line, secret] of shapes) plants.push({ label, line, secret });
  return plants;
}

const session = findSession();

describe.skipIf(!session)('planted secrets (issue 22): none survives any redacted export', () => {
  it(`masks all of them in the JSONL, Markdown, JSON and HTML exports of ${session?.split('/').at(-2)}`, async () => {
    const plants = makePlants();
    // Every kept rule has a planted value (the count the docs state).
    expect(plants.length).toBeGreaterThanOrEqual(listProviderRules().length + 15);
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-planted-'));
    const records = readFileSync(session!, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as SessionRecord);
    const user = records.find((r) => r.type === 'user' && !r.isCompactSummary && !r.isMeta)!;
    const block = plants.map((p) => p.line).join('\n\n');
    const content = user.message.content;
    user.message.content =
      typeof content === 'string' ? `${content}\n\n${block}` : [...content, { type: 'text', text: block }];
    const summary = records.find((r) => r.isCompactSummary)!;
    // Bare: the value as the scan finds it in its planted line (a webhook's whole URL, a JWT's three
    // parts), without the words around it that let a rule find it.
    const bareOf = (p: Plant): string => {
      const at = p.line.indexOf(p.secret);
      const over = findSecretsInText(p.line).filter((m) => m.start < at + p.secret.length && m.end > at);
      return p.line.slice(
        Math.min(at, ...over.map((m) => m.start)),
        Math.max(at + p.secret.length, ...over.map((m) => m.end)),
      );
    };
    const bare = plants.map((p) => `it used ${bareOf(p)} there`).join('\n');
    const sc = summary.message.content;
    summary.message.content =
      typeof sc === 'string' ? `${sc}\n${bare}` : [...sc, { type: 'text', text: bare }];
    const toolUse = records.find(
      (r) =>
        r.type === 'assistant' &&
        Array.isArray(r.message?.content) &&
        r.message.content.some((b: { type: string }) => b.type === 'tool_use'),
    );
    const keyName = plants.find((p) => p.label === 'anthropic-api-key')?.secret;
    const b = Array.isArray(toolUse?.message.content)
      ? toolUse.message.content.find((x) => x.type === 'tool_use')
      : undefined;
    if (b && keyName) b.input = { ...b.input, [keyName]: 'as a key name' };
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);

    const outputs: Record<string, string> = {};
    for (const [name, args] of [
      ['jsonl', ['export', file, '--jsonl', '--redact']],
      ['md', ['export', file, '--md', '--redact']],
      ['json', ['export', file, '--json', '--redact']],
      ['html', ['report', file, '--redact']],
    ] as const) {
      const target = join(dir, `out.${name}`);
      const code = await main([...args, '-o', target], () => {});
      expect(code, name).toBe(0);
      outputs[name] = readFileSync(target, 'utf8');
    }
    const survived: string[] = [];
    for (const p of plants) {
      const forms = [p.secret, JSON.stringify(p.secret).slice(1, -1)];
      for (const [name, text] of Object.entries(outputs)) {
        if (forms.some((f) => text.includes(f))) survived.push(`${p.label} in ${name}`);
      }
    }
    expect(survived).toEqual([]);
  }, 60_000);
});
