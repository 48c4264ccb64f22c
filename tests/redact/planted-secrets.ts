import type { SecretKind } from '../../src/engine/redact/secret-kinds';

// One obviously fake secret of each kind, with the text it is planted in and the part a mask
// must remove. Shared by the unit tests, the CLI tests and the e2e fixture.

export interface PlantedSecret {
  kind: SecretKind;
  /** The line as it appears in the transcript. */
  text: string;
  /** What must not survive any export. */
  secret: string;
}

const FAKE = 'FAKEFAKEFAKE';

export const PLANTED_SECRETS: readonly PlantedSecret[] = [
  {
    kind: 'anthropic-key',
    text: `ANTHROPIC key sk-ant-api03-${FAKE}0123456789abcdefXYZ in use`,
    secret: `sk-ant-api03-${FAKE}0123456789abcdefXYZ`,
  },
  {
    kind: 'openai-key',
    text: `openai = "sk-proj-${FAKE}abcdefghijklmnop1234"`,
    secret: `sk-proj-${FAKE}abcdefghijklmnop1234`,
  },
  { kind: 'aws-key', text: 'the access key id is AKIAFAKEFAKEFAKE1234 here', secret: 'AKIAFAKEFAKEFAKE1234' },
  {
    kind: 'aws-secret',
    text: 'aws_secret_access_key = FAKEfakeFAKEfakeFAKEfakeFAKEfake/+FAKEfa',
    secret: 'FAKEfakeFAKEfakeFAKEfakeFAKEfake/+FAKEfa',
  },
  {
    kind: 'github-token',
    text: `push with ghp_${FAKE}${FAKE}${FAKE}ABCD please`,
    secret: `ghp_${FAKE}${FAKE}${FAKE}ABCD`,
  },
  {
    kind: 'google-key',
    text: `maps key AIzaSy${FAKE}${FAKE}_fake-FAK end`,
    secret: `AIzaSy${FAKE}${FAKE}_fake-FAK`,
  },
  {
    kind: 'slack-token',
    text: `SLACK xoxb-0000000000-${FAKE}fake posted`,
    secret: `xoxb-0000000000-${FAKE}fake`,
  },
  {
    kind: 'stripe-key',
    text: `stripe sk_live_${FAKE}fakeFAKE1234 charge`,
    secret: `sk_live_${FAKE}fakeFAKE1234`,
  },
  {
    kind: 'bearer-token',
    text: `curl -H "Authorization: Bearer fAkEtOkEn.${FAKE}.0123456789" https://api.example.test`,
    secret: `fAkEtOkEn.${FAKE}.0123456789`,
  },
  { kind: 'env-secret', text: 'export DATABASE_PASSWORD=fake-hunter2-pw', secret: 'fake-hunter2-pw' },
  {
    kind: 'url-password',
    text: 'psql postgres://mira:fakeS3cretPw@db.example.test/app',
    secret: 'fakeS3cretPw',
  },
  {
    kind: 'private-key',
    text: `key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEFAKEFAKE${FAKE}\nFAKEFAKE==\n-----END RSA PRIVATE KEY-----\n`,
    secret: `MIIEFAKEFAKE${FAKE}`,
  },
  {
    kind: 'jwt',
    text: 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.FAKEsignatureFAKE ok',
    secret: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.FAKEsignatureFAKE',
  },
  { kind: 'email', text: 'mail fake.person@example.test about it', secret: 'fake.person@example.test' },
  {
    kind: 'home-path',
    text: 'opened /home/fakeuser/project/a.ts and /Users/fakeuser/b.ts',
    secret: 'fakeuser',
  },
];
