import type { DialectDescriptor } from '../descriptor';
import { CLAUDE_SDK_STREAM_DIALECT_INFO } from './info';
import { createSdkStreamNormalizer } from './normalizer';

// The SDK's stream-json as the worker and the CLI read it: its info (info.ts) and its normalizer.

export const CLAUDE_SDK_STREAM_DIALECT: DialectDescriptor = {
  ...CLAUDE_SDK_STREAM_DIALECT_INFO,
  createNormalizer: createSdkStreamNormalizer,
};
