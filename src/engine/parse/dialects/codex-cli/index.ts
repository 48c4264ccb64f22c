import type { DialectDescriptor } from '../descriptor';
import { CODEX_CLI_DIALECT_INFO } from './info';
import { createCodexCliNormalizer } from './normalizer';

// Codex CLI as the worker and the CLI read it: its info (info.ts) and its rollout normalizer.

export const CODEX_CLI_DIALECT: DialectDescriptor = {
  ...CODEX_CLI_DIALECT_INFO,
  createNormalizer: createCodexCliNormalizer,
};
