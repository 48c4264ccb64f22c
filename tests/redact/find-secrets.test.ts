import { describe, expect, it } from 'vitest';
import { findSecretsInText, getSecretId } from '../../src/engine/redact/find-secrets';
import { getRedactionRefusal, maskJsonValue, maskText } from '../../src/engine/redact/mask';
import { maskSummaryRequest } from './redact-request';
import { PLANTED_SECRETS } from './planted-secrets';
import { cpuMs } from '../helpers/cpu-time';

describe('findSecretsInText', () => {
  for (const planted of PLANTED_SECRETS) {
    it(`finds and masks ${planted.kind}`, () => {
      const found = findSecretsInText(planted.text);
      expect(found.map((f) => f.kind)).toContain(planted.kind);
      const masked = maskText(planted.text);
      expect(masked).not.toContain(planted.secret);
      expect(masked).toContain(
        planted.kind === 'home-path' ? '~/project/a.ts' : `[REDACTED:${planted.kind}]`,
      );
    });
  }

  it('keeps the name of an assignment and the user of a URL', () => {
    expect(maskText('export DATABASE_PASSWORD=fake-hunter2-pw')).toBe(
      'export DATABASE_PASSWORD=[REDACTED:env-secret]',
    );
    expect(maskText('postgres://mira:fakeS3cretPw@db.example.test/app')).toBe(
      'postgres://mira:[REDACTED:url-password]@db.example.test/app',
    );
    expect(maskText('C:\\Users\\fakeuser\\repo')).toBe('~\\repo');
  });

  it('gives the same secret the same id wherever it is, and unmasks by id', () => {
    const a = findSecretsInText('one AKIAFAKEFAKEFAKE1234 two');
    const b = findSecretsInText('AKIAFAKEFAKEFAKE1234');
    expect(a[0]!.id).toBe(b[0]!.id);
    expect(a[0]!.id).toBe(getSecretId('aws-key', 'AKIAFAKEFAKEFAKE1234'));
    expect(maskText('x AKIAFAKEFAKEFAKE1234 mail a.b@example.test', [a[0]!.id])).toBe(
      'x AKIAFAKEFAKEFAKE1234 mail [REDACTED:email]',
    );
  });

  it('finds nothing in ordinary transcript text', () => {
    const texts = [
      'Let me read src/lexer.ts and run `npm test -- --run`.',
      'The tokens: 12345 input, maxOutputTokens: 32000, token_count updated.',
      'Co-Authored-By: Claude <noreply@anthropic.com>',
      'git clone git@github.com:org/repo.git && npm i react@18.2.0 @types/node',
      'const password = input.value; // validated below',
      'https://example.test/path?query=1#frag and /usr/local/bin and ~/code',
      'sk-1 is a short name, AKIA is a prefix, eyJ alone is not a JWT',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder, as a transcript shows it
      'PASSWORD: ${DB_PASSWORD} and API_TOKEN=<your token here> and SECRET=true',
    ];
    for (const text of texts) expect(findSecretsInText(text), text).toEqual([]);
  });

  // Code read as NAME = value: a keyword or a call is the code that computes a value, never one.
  // Each was found on the real corpora (dealerflow's `generateToken = function()` masked every
  // "function" of its requests, the preset prompt's own with them); a literal stays a secret.
  it('takes no keyword or call for the value of a secret-named assignment', () => {
    const code = [
      'inviteSchema.statics.generateToken = function() {',
      'const decodedToken = await admin.auth().verifyIdToken(token);',
      'export const refreshToken = async (req, res) => {',
      'const refreshToken = useCallback(async () => {',
      'const token = getToken (req);',
      'read_token = lambda req: req.headers["x-token"]',
    ];
    for (const text of code) expect(findSecretsInText(text), text).toEqual([]);
    expect(maskText('const token = "functionally-a-secret-9f3k";')).toBe(
      'const token = "[REDACTED:env-secret]";',
    );
    expect(maskText('password: moxa')).toBe('password: [REDACTED:env-secret]');
    expect(maskText('SECRET=asyncronous1')).toBe('SECRET=[REDACTED:env-secret]');
  });

  it("takes no secret's name for its value: code naming a field, variable or atom", () => {
    // A real Codex session on an Elixir project: its `password :password do` made "password" a
    // secret, and every "password" of the session was masked, the person's words and file names
    // with it (15 in one summary request); `%{token: token}` did the same to "token".
    const code = [
      'strategies do\n  password :password do',
      'def run(%{arguments: %{token: token}} = input, opts, context)',
      'params = %{new_password: new_password}',
      'api_key: api_key,',
    ];
    for (const text of code) expect(findSecretsInText(text), text).toEqual([]);
    expect(maskText('DB_PASSWORD=passwordless9')).toBe('DB_PASSWORD=[REDACTED:env-secret]');
    expect(maskText('token: tokenize-me-7f')).toBe('token: [REDACTED:env-secret]');
  });

  it('runs in linear time on long adversarial input', () => {
    const MB = 1 << 20;
    const inputs = [
      'a'.repeat(MB),
      '-'.repeat(MB),
      '='.repeat(MB),
      'a@'.repeat(MB / 2),
      'eyJ'.repeat(MB / 3),
      `${'x'.repeat(MB)}@`,
      'sk-'.repeat(MB / 3),
      'PASSWORD'.repeat(MB / 8),
      '-----BEGIN PRIVATE KEY-----'.repeat(MB / 27),
      'a://'.repeat(MB / 4),
      '/home/'.repeat(MB / 6),
      // A credential word in every 8 characters of one long token run (the entropy rule), and a
      // keyword of gitleaks' semi-generic rules everywhere (their identifier prefix).
      'api_key_'.repeat(MB / 8),
      'key='.repeat(MB / 4),
      'password'.repeat(MB / 8),
    ];
    for (const text of inputs) {
      // A backtracking pattern takes minutes on 1 MB; linear scans take tens of milliseconds (CPU).
      expect(
        cpuMs(() => findSecretsInText(text), 1),
        text.slice(0, 12),
      ).toBeLessThan(2_000);
    }
  });
});

describe('masking structures', () => {
  it('masks every string of a JSON value and leaves the input alone', () => {
    const record = {
      message: { content: [{ type: 'text', text: 'key AKIAFAKEFAKEFAKE1234' }] },
      cwd: '/home/fakeuser/x',
    };
    const masked = maskJsonValue(record);
    expect(JSON.stringify(masked)).not.toContain('AKIAFAKE');
    expect(masked.cwd).toBe('~/x');
    expect(record.cwd).toBe('/home/fakeuser/x');
  });

  it('masks a summarizer request', () => {
    const masked = maskSummaryRequest(
      {
        system: 'sys',
        messages: [{ role: 'user', content: 'export GITHUB_TOKEN=fakefakefake123' }],
        prompt: 'p',
        model: 'm',
        maxOutputTokens: 1,
      },
      { unmasked: [] },
    );
    expect(masked.messages[0]!.content).toBe('export GITHUB_TOKEN=[REDACTED:env-secret]');
  });
});

// A real session's JSONL export was refused: its text held `\n@router.post("/create")` (a Python
// decorator after a newline) and a diff's `-@router.post(`; the written JSON reads the escape's
// letter as an email's local part (`n@router.post`), which the masks, placed on decoded strings,
// never covered.
describe('emails and JSON escapes', () => {
  it('takes no punctuation-only local part for an address', () => {
    expect(findSecretsInText('-@router.post("/create")').filter((m) => m.kind === 'email')).toEqual([]);
    expect(findSecretsInText('mail a.b-c@example.org').filter((m) => m.kind === 'email')).toHaveLength(1);
  });

  it('the refusal re-scan reads an escape’s letter as no part of a secret, and still finds a real one', () => {
    const text = 'def f():\n    pass\n\n\n@router.post("/create")\n\tnuser@example.com';
    const settings = { unmasked: [] };
    const written = JSON.stringify({ text: maskText(text, settings) });
    expect(written).toContain('\\n@router.post');
    expect(getRedactionRefusal(written, settings)).toBeUndefined();
    // The address after the tab was masked; unmasked, the re-scan finds it through the `\t`.
    expect(written).not.toContain('nuser@example.com');
    const leaked = JSON.stringify({ text });
    expect(getRedactionRefusal(leaked, settings)).toMatch(
      /a secret \(email\) survived redaction on output line 1/,
    );
    // A doubled backslash is a backslash: `\\n` then an address is `n…@` in the text, still found.
    expect(getRedactionRefusal(JSON.stringify({ text: '\\nuser@example.com' }), settings)).toMatch(/email/);
  });
});
