import type { DialectId } from '../../types';
import { claudeCodeNormalizer } from './claude-code';
import { createCodexCliNormalizer } from './codex-cli';
import type { RecordNormalizer } from './record';

/**
 * The dialects the engine parses, each with a factory for one file's normalizer (a normalizer
 * may keep per-file state). A detected dialect missing here is reported as `unsupported-dialect`.
 */
export const RECORD_NORMALIZERS: Partial<Record<DialectId, () => RecordNormalizer>> = {
  'claude-code': () => claudeCodeNormalizer,
  'codex-cli': createCodexCliNormalizer,
};
