import type { DialectId } from '../../types';
import { CLAUDE_CODE_DIALECT, claudeCodeNormalizer } from './claude-code';
import { CODEX_CLI_DIALECT, createCodexCliNormalizer } from './codex-cli';
import type { DialectDescriptor } from './descriptor';
import type { RecordNormalizer } from './record';

/** Every dialect the engine knows. Adding one: its file (exporting a descriptor) and a line here. */
export const DIALECTS: readonly DialectDescriptor[] = [CLAUDE_CODE_DIALECT, CODEX_CLI_DIALECT];

/** The descriptor of a dialect, or undefined for one the engine does not know. */
export function getDialect(id: DialectId | undefined): DialectDescriptor | undefined {
  return DIALECTS.find((d) => d.id === id);
}

/**
 * The dialects the engine parses, each with a factory for one file's normalizer (a normalizer
 * may keep per-file state). A detected dialect missing here is reported as `unsupported-dialect`.
 */
export const RECORD_NORMALIZERS: Partial<Record<DialectId, () => RecordNormalizer>> = {
  'claude-code': () => claudeCodeNormalizer,
  'codex-cli': createCodexCliNormalizer,
};
