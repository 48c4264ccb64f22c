import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSecretsInText } from '../../src/engine/redact/find-secrets';
import { findProviderSecrets, listProviderRules } from '../../src/engine/redact/gitleaks-rules';
import { generateFromRegex, seededRandom } from './generate-secret';

// Issue 22, item 6: a secret of every kept gitleaks rule (a value generated from the rule's own
// pattern, in the rule's keyword context), unprefixed tokens and the shapes of item 4, planted in a
// copy of a real session in every place a secret can be: the first user message and a tool result
// with their context; bare (no context) in the log's compaction summary; an Anthropic key as a
// JSON key name in a tool call's input; secrets of a subagent file quoted bare in the main file;
// a secret in a file path of a tool call; and the user's name in the encoded project folder the
// session sits in. Used by the CLI's test (planted-everywhere) and the page's (planted-page). The
// corpus text itself is read from ../shared at test time and never committed.

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');

/** The smallest main Claude Code session in the corpus with a compaction summary. */
export function findSession(): string | undefined {
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
  isSidechain?: boolean;
  message: {
    content:
      | string
      | {
          type: string;
          text?: string;
          input?: Record<string, unknown>;
          content?: string | { type: string; text: string }[];
        }[];
  };
}

export interface Plant {
  label: string;
  /** The line planted with its context. */
  line: string;
  /** What must not survive. */
  secret: string;
}

export function makePlants(): Plant[] {
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

/** The user name of the encoded project folder the planted session sits in. */
export const PLANTED_USER = 'plantuserqz';

export interface PlantedSession {
  dir: string;
  /** The main file, under `-home-<PLANTED_USER>-work-demo/`, and its subagent file. */
  main: string;
  subagent: string;
  plants: Plant[];
  /** Each planted value as the scan finds it (a webhook's whole URL), as a summary may quote it. */
  bare: string[];
  /** Every value that must not appear in any output (plants, subagent secrets, the user's name). */
  secrets: { label: string; secret: string }[];
}

const first = <T>(records: T[], test: (r: T) => boolean): T | undefined => records.find(test);

/** Writes the planted copy of `session` under `root`. */
export function writePlantedSession(session: string, root: string): PlantedSession {
  const plants = makePlants();
  const dir = join(root, `-home-${PLANTED_USER}-work-demo`);
  mkdirSync(join(dir, 'subagents'), { recursive: true });
  const records = readFileSync(session, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SessionRecord);
  const block = plants.map((p) => p.line).join('\n\n');
  const append = (r: SessionRecord, text: string): void => {
    const c = r.message.content;
    r.message.content = typeof c === 'string' ? `${c}\n\n${text}` : [...c, { type: 'text', text }];
  };
  append(first(records, (r) => r.type === 'user' && !r.isCompactSummary && !r.isMeta)!, block);
  // A tool result: the same lines, as a command's output would hold them.
  const result = first(
    records,
    (r) =>
      r.type === 'user' &&
      Array.isArray(r.message?.content) &&
      r.message.content.some((b) => b.type === 'tool_result'),
  );
  if (result && Array.isArray(result.message.content)) {
    const b = result.message.content.find((x) => x.type === 'tool_result')!;
    b.content =
      typeof b.content === 'string' || b.content === undefined
        ? `${b.content ?? ''}\n${block}`
        : [...b.content, { type: 'text', text: block }];
  }
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
  // Secrets only a subagent file holds with their context: the main file quotes them bare.
  const random = seededRandom(4242);
  const abc = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const subSecrets = Array.from({ length: 3 }, (_, i) => {
    let t = '';
    while (!/[a-z]/.test(t) || !/[A-Z]/.test(t) || !/\d/.test(t))
      t = Array.from({ length: 30 + i }, () => abc[Math.floor(random() * abc.length)]).join('');
    return t;
  });
  const pathSecret = plants.find((p) => p.label === 'github-pat')?.secret ?? subSecrets[0]!;
  const bare = [
    ...plants.map((p) => `it used ${bareOf(p)} there`),
    ...subSecrets.map((s) => `the subagent used ${s} there`),
  ].join('\n');
  append(first(records, (r) => !!r.isCompactSummary)!, bare);
  const toolUse = first(
    records,
    (r) =>
      r.type === 'assistant' &&
      Array.isArray(r.message?.content) &&
      r.message.content.some((b) => b.type === 'tool_use'),
  );
  const keyName = plants.find((p) => p.label === 'anthropic-api-key')?.secret;
  const b = Array.isArray(toolUse?.message.content)
    ? toolUse.message.content.find((x) => x.type === 'tool_use')
    : undefined;
  if (b && keyName)
    b.input = { ...b.input, [keyName]: 'as a key name', file_path: `/srv/keys/${pathSecret}/id.txt` };
  const main = join(dir, 'session.jsonl');
  writeFileSync(main, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  // The subagent: the session's first user and assistant records, on the side chain, holding
  // the subagent's secrets after `token`.
  const sub = records
    .filter((r) => r.type === 'user' || r.type === 'assistant')
    .slice(0, 2)
    .map(
      (r, i) =>
        ({
          ...r,
          isSidechain: true,
          agentId: 'plant01',
          uuid: `00000000-0000-4000-8000-00000000000${i}`,
          parentUuid: i === 0 ? null : `00000000-0000-4000-8000-00000000000${i - 1}`,
        }) as SessionRecord,
    );
  sub[0]!.message = {
    ...sub[0]!.message,
    content: subSecrets.map((s) => `export API_TOKEN=${s}`).join('\n'),
  };
  const subagent = join(dir, 'subagents', 'agent-plant01.jsonl');
  writeFileSync(subagent, `${sub.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return {
    dir,
    main,
    subagent,
    plants,
    bare: [...plants.map(bareOf), ...subSecrets],
    secrets: [
      ...plants.map((p) => ({ label: p.label, secret: p.secret })),
      ...subSecrets.map((s, i) => ({ label: `subagent token ${i}`, secret: s })),
      { label: 'user name in the project folder', secret: PLANTED_USER },
    ],
  };
}

/** Which planted values an output still holds (as written or JSON-escaped). */
export function findSurvivors(planted: PlantedSession, outputs: Record<string, string>): string[] {
  const survived: string[] = [];
  for (const p of planted.secrets) {
    const forms = [p.secret, JSON.stringify(p.secret).slice(1, -1)];
    for (const [name, text] of Object.entries(outputs)) {
      if (forms.some((f) => text.includes(f))) survived.push(`${p.label} in ${name}`);
    }
  }
  return survived;
}
