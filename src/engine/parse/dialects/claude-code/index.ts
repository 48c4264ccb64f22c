import type { DialectDescriptor } from '../descriptor';
import { CLAUDE_CODE_DIALECT_INFO } from './info';
import { claudeCodeNormalizer } from './normalizer';
import { CLAUDE_CODE_FILE_TOOLS } from '../shared/claude-file-tools';

// Claude Code as the worker and the CLI read it: its info (info.ts) and its records' normalizer.

/** Claude Code session JSONL, with its normalizer. */
export const CLAUDE_CODE_DIALECT: DialectDescriptor = {
  ...CLAUDE_CODE_DIALECT_INFO,
  createNormalizer: () => claudeCodeNormalizer,
  fileTools: CLAUDE_CODE_FILE_TOOLS,
};
