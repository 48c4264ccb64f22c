import type { DialectDescriptor } from '../descriptor';
import { CLAUDE_SDK_STREAM_DIALECT_INFO } from './info';
import { createSdkStreamNormalizer } from './normalizer';
import { CLAUDE_CODE_FILE_TOOLS } from '../shared/claude-file-tools';

// The SDK's stream-json as the worker and the CLI read it: its info (info.ts) and its normalizer.

export const CLAUDE_SDK_STREAM_DIALECT: DialectDescriptor = {
  ...CLAUDE_SDK_STREAM_DIALECT_INFO,
  createNormalizer: createSdkStreamNormalizer,
  fileTools: CLAUDE_CODE_FILE_TOOLS,
};
