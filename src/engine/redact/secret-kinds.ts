// The kinds of secret the finder names, their labels and their masks: data the Secrets panel shows
// without loading the rules themselves (find-secrets.ts and gitleaks' rules stay in the worker).

export type SecretKind =
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-key'
  | 'aws-secret'
  | 'github-token'
  | 'google-key'
  | 'slack-token'
  | 'stripe-key'
  | 'bearer-token'
  | 'env-secret'
  | 'url-password'
  | 'private-key'
  | 'jwt'
  | 'basic-auth'
  | 'cli-password'
  | 'webhook-url'
  | 'discord-token'
  | 'google-oauth-token'
  | 'azure-key'
  | 'provider-token'
  | 'high-entropy'
  | 'email'
  | 'home-path';

export const SECRET_KIND_LABELS: Record<SecretKind, string> = {
  'anthropic-key': 'Anthropic API key',
  'openai-key': 'OpenAI API key',
  'aws-key': 'AWS access key id',
  'aws-secret': 'AWS secret access key',
  'github-token': 'GitHub token',
  'google-key': 'Google API key',
  'slack-token': 'Slack token',
  'stripe-key': 'Stripe key',
  'bearer-token': 'Bearer token',
  'env-secret': 'Password or secret assignment',
  'url-password': 'Password in a URL',
  'private-key': 'Private key',
  jwt: 'JSON Web Token',
  'basic-auth': 'Basic auth credentials',
  'cli-password': 'Password on a command line',
  'webhook-url': 'Webhook URL',
  'discord-token': 'Discord token',
  'google-oauth-token': 'Google OAuth token',
  'azure-key': 'Azure account key',
  'provider-token': 'Provider token (gitleaks rule)',
  'high-entropy': 'Random-looking token',
  email: 'Email address',
  'home-path': 'Home path with a user name',
};

/** The text that replaces a secret of this kind. */
export function getMaskText(kind: SecretKind): string {
  return kind === 'home-path' ? '~' : `[REDACTED:${kind}]`;
}
