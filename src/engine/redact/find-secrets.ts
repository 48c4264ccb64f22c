// Secrets in transcript text: API keys and tokens of the common providers, passwords in URLs and
// env assignments, private keys, JWTs, emails and home paths with a user name.
//
// Every pattern runs in linear time: no quantified group holds another quantifier, every
// quantifier that can backtrack is bounded, and patterns that would start inside a run of the
// same characters are anchored at the run's start (a look-behind or `\b`), so one attempt per run.
// Private keys are found with `indexOf` (BEGIN … END), not a regex. gitleaks' provider rules
// (gitleaks-rules.ts) and the entropy rule (entropy-secrets.ts) add what these name nowhere.

import { findHighEntropySecrets } from './entropy-secrets';
import { findProviderSecrets } from './gitleaks-rules';
import type { SecretKind } from './secret-kinds';

/** One secret in one text: `[start, end)` is what the mask replaces (UTF-16 offsets). */
export interface SecretMatch {
  kind: SecretKind;
  start: number;
  end: number;
  /** Stable across texts and sessions: the same secret has the same id wherever it occurs. */
  id: string;
  /** The gitleaks rule that found it (kind `provider-token`). */
  rule?: string;
}

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
  /** The capture group that is the secret (the whole match when absent). */
  group?: number;
  /**
   * Rejects a candidate secret (placeholders, numbers, well-known non-personal addresses); `after`
   * is the text that follows it (up to `AFTER_CHARS`), where a call's `(` shows code.
   */
  reject?: (secret: string, after: string) => boolean;
  /**
   * A cheap test every text the rule can match passes (a literal every match holds): the rule's
   * own pattern, with its bounded prefixes tried at each word start, runs only on those.
   */
  hint: (text: string) => boolean;
}

const has =
  (...literals: string[]) =>
  (text: string): boolean =>
    literals.some((l) => text.includes(l));

const PLACEHOLDER = /^(?:\$|<|\{|%|\*{3}|x{4}|\[REDACTED)/i;
const NOT_A_VALUE = /^(?:\d+|true|false|null|none|undefined|required|optional|string|number)$/i;
/**
 * A value that is itself a secret's name (`token: token`, Elixir's `password :password do`,
 * `new_password`): code naming a variable, field or atom, not the value. A real Codex session's
 * `password :password` made "password" a secret, and every "password" of the session was masked
 * (15 in one summary request: the person's "trigger the password reset feature", file names).
 */
const NAME_AS_VALUE =
  /^:?(?:[A-Za-z0-9]+_)*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)s?[}\]]*$/i;
/** `input.value`, `process.env.X`, `this.token`: code reading a value, not the value. */
const CODE_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * A keyword of JavaScript or Python is code, never a value: `generateToken = function() {`,
 * `const token = await getIdToken()`, `SECRET = async (req) =>` (a real session's request had
 * every "function" masked, 142 times, the preset's own "function signatures" with them).
 */
const CODE_KEYWORD = /^(?:function|async|await|typeof|require|import|return|yield|lambda|class|this|self)$/;
/** `getToken(`, `useCallback(`: a call, the value code. */
const CALL_FOLLOWS = /^[ \t]{0,4}\(/;
/** Characters after a candidate that `reject` sees. */
const AFTER_CHARS = 8;

/** The names `env-secret` looks for, without the name's prefix tried at every word start. */
const ENV_SECRET_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE_KEY/i;

// Order is priority: where two rules match at the same place, the earlier (more specific) wins.
const RULES: readonly Rule[] = [
  { kind: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,300}/g, hint: has('sk-ant-') },
  {
    kind: 'openai-key',
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}/g,
    hint: has('sk-'),
  },
  {
    kind: 'aws-key',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    hint: has('AKIA', 'ASIA'),
  },
  {
    kind: 'aws-secret',
    pattern:
      /\baws_?secret_?(?:access_?)?key["']?[ \t]{0,4}[=: \t][ \t]{0,4}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
    hint: (text) => /aws_?secret/i.test(text),
  },
  {
    kind: 'github-token',
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
    hint: has('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'),
  },
  {
    kind: 'google-key',
    pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    hint: has('AIza'),
  },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,250}/g, hint: has('xox') },
  {
    kind: 'stripe-key',
    pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}/g,
    hint: has('_live_', '_test_'),
  },
  {
    kind: 'jwt',
    // A terminal wraps a long JWT over lines: a newline (and indent) may sit between characters.
    // The two alternatives start differently, so a run splits one way only: linear.
    pattern:
      /(?<![A-Za-z0-9_-])eyJ(?:[A-Za-z0-9_-]|\r?\n[ \t]{0,8}){8,4096}\.(?:\r?\n[ \t]{0,8})?eyJ(?:[A-Za-z0-9_-]|\r?\n[ \t]{0,8}){8,8192}\.(?:[A-Za-z0-9_-]|\r?\n[ \t]{0,8}){7,4096}[A-Za-z0-9_-]/g,
    hint: has('eyJ'),
  },
  {
    kind: 'bearer-token',
    pattern: /\b[Bb]earer[ \t]{1,8}([A-Za-z0-9._~+/=-]{16,4096})/g,
    group: 1,
    hint: has('earer'),
  },
  {
    kind: 'basic-auth',
    pattern: /\bBasic[ \t]{1,8}([A-Za-z0-9+/]{12,1024}={0,2})(?![A-Za-z0-9+/=])/g,
    group: 1,
    reject: (s) => /^[A-Za-z]+$/.test(s),
    hint: has('Basic'),
  },
  {
    kind: 'cli-password',
    // mysql -p<pw> (no space: with one, -p prompts), mysqldump/mysqladmin alike.
    pattern: /(?<![\w-])mysql(?:dump|admin)?(?:[ \t][^\n]{0,200}?)?[ \t]-p([^\s'"`-][^\s'"`]{2,127})/g,
    group: 1,
    reject: (s) => PLACEHOLDER.test(s),
    hint: has('mysql'),
  },
  {
    kind: 'webhook-url',
    pattern:
      /https:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,120}|(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{30,100})/g,
    hint: has('hooks.slack.com', '/api/webhooks/'),
  },
  {
    kind: 'discord-token',
    pattern:
      /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
    // The shape alone is tried only where the text names Discord or a token: a run of dotted
    // base64 elsewhere is more often something else, and the scan stays fast.
    hint: (text) => /discord|token|bot /i.test(text),
  },
  {
    kind: 'google-oauth-token',
    pattern: /(?<![A-Za-z0-9_-])ya29\.[0-9A-Za-z_-]{20,2048}/g,
    hint: has('ya29.'),
  },
  {
    kind: 'azure-key',
    pattern: /\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,128}={0,2})/g,
    group: 1,
    hint: has('AccessKey=', 'AccountKey='),
  },
  {
    kind: 'url-password',
    pattern:
      /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s:/?#@"'<>\\]{1,256}:([^\s/?#@"'<>\\]{1,256})@/g,
    group: 1,
    reject: (s) => PLACEHOLDER.test(s),
    hint: (text) => text.includes('://') && text.includes('@'),
  },
  {
    kind: 'env-secret',
    // NAME=value, NAME: value, "name": "value" where the name ends in PASSWORD, SECRET, TOKEN, …
    pattern:
      /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{0,64}(?:PASSWORD|PASSWD|SECRET|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE_KEY)["']?[ \t]{0,4}[=:][ \t]{0,4}["']?([^\s"'`\\&,;()]{4,512})/gi,
    group: 1,
    reject: (s, after) =>
      PLACEHOLDER.test(s) ||
      NOT_A_VALUE.test(s) ||
      NAME_AS_VALUE.test(s) ||
      CODE_EXPRESSION.test(s) ||
      CODE_KEYWORD.test(s) ||
      CALL_FOLLOWS.test(after),
    hint: (text) => ENV_SECRET_NAME.test(text),
  },
  {
    kind: 'email',
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
    // A local part of punctuation alone is no address: `-@router.post(` is a decorator on a diff's
    // removed line (a real session's).
    reject: (s) => /^(?:no-?reply|git)@/i.test(s) || !/[A-Za-z0-9]/.test(s.slice(0, s.indexOf('@'))),
    hint: has('@'),
  },
  {
    kind: 'home-path',
    pattern:
      /(?:\/home\/|\/Users\/|[A-Za-z]:\\{1,2}Users\\{1,2})(?!(?:Shared|Public|Default|All Users)(?![A-Za-z0-9._-]))[A-Za-z0-9._-]{1,64}/g,
    hint: has('/home/', '/Users/', 'Users\\'),
  },
  {
    kind: 'home-path',
    // Claude Code's project folders encode the path: `-home-<user>-work-…`, `-Users-<user>-…`.
    pattern: /(?<![A-Za-z0-9])-(?:home|Users)-([A-Za-z0-9._]{1,64})(?=-)/g,
    group: 1,
    hint: has('-home-', '-Users-'),
  },
];

/** FNV-1a, 32 bits, over UTF-16 code units: a short stable id, not a security measure. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** The id of a secret: its kind and a hash of its value. */
export function getSecretId(kind: SecretKind, value: string): string {
  return `${kind}-${hash(value)}`;
}

const PEM_BEGIN = '-----BEGIN ';
const PEM_END = '-----END ';
const PEM_TAIL = 'PRIVATE KEY-----';
/** Longest PEM label between BEGIN and "PRIVATE KEY" ("ENCRYPTED ", "OPENSSH ", "RSA ", …). */
const MAX_PEM_LABEL_CHARS = 40;

function findPrivateKeys(text: string, out: SecretMatch[]): void {
  let from = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, from);
    if (begin < 0) return;
    const label = text.indexOf(PEM_TAIL, begin + PEM_BEGIN.length);
    if (label < 0) return;
    if (label - (begin + PEM_BEGIN.length) > MAX_PEM_LABEL_CHARS) {
      from = begin + PEM_BEGIN.length;
      continue;
    }
    const end = text.indexOf(PEM_END, label);
    if (end < 0) {
      // A key cut off (a preview, a truncated output): mask to the end of the text.
      out.push({
        kind: 'private-key',
        start: begin,
        end: text.length,
        id: getSecretId('private-key', text.slice(begin)),
      });
      return;
    }
    const tail = text.indexOf(PEM_TAIL, end);
    const stop =
      tail >= 0 && tail - end <= PEM_END.length + MAX_PEM_LABEL_CHARS
        ? tail + PEM_TAIL.length
        : end + PEM_END.length;
    out.push({
      kind: 'private-key',
      start: begin,
      end: stop,
      id: getSecretId('private-key', text.slice(begin, stop)),
    });
    from = stop;
  }
}

/** Every secret in a text, in order, without overlaps. Linear in the text's length. */
export function findSecretsInText(text: string): SecretMatch[] {
  const found: (SecretMatch & { rank: number })[] = [];
  const keys: SecretMatch[] = [];
  findPrivateKeys(text, keys);
  for (const k of keys) found.push({ ...k, rank: -1 });
  RULES.forEach((rule, rank) => {
    if (!rule.hint(text)) return;
    // `exec` on the rule's own pattern: `matchAll` clones the pattern at every call, and the
    // secrets scan calls this for every string of every record.
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const secret = rule.group === undefined ? m[0] : m[rule.group];
      if (!secret) continue;
      const start = (m.index ?? 0) + (rule.group === undefined ? 0 : m[0].lastIndexOf(secret));
      const end = start + secret.length;
      if (rule.reject?.(secret, text.slice(end, end + AFTER_CHARS))) continue;
      found.push({
        kind: rule.kind,
        start,
        end: start + secret.length,
        id: getSecretId(rule.kind, secret),
        rank,
      });
    }
  });
  const after = RULES.length;
  for (const p of findProviderSecrets(text)) {
    const value = text.slice(p.start, p.end);
    found.push({
      kind: 'provider-token',
      rule: p.rule,
      start: p.start,
      end: p.end,
      id: getSecretId('provider-token', value),
      rank: after,
    });
  }
  for (const e of findHighEntropySecrets(text)) {
    const value = text.slice(e.start, e.end);
    found.push({ kind: 'high-entropy', ...e, id: getSecretId('high-entropy', value), rank: after + 1 });
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end);
  const out: SecretMatch[] = [];
  let covered = 0;
  for (const f of found) {
    if (f.start < covered) continue;
    out.push({ kind: f.kind, start: f.start, end: f.end, id: f.id, ...(f.rule ? { rule: f.rule } : {}) });
    covered = f.end;
  }
  return out;
}
