import type { DialectId } from '../../types';
import {
  ANTHROPIC_MESSAGES_DIALECT_INFO,
  ANTHROPIC_MESSAGES_JSON_DIALECT_INFO,
} from './anthropic-messages/info';
import { CLAUDE_CODE_DIALECT_INFO } from './claude-code/info';
import { CLAUDE_SDK_STREAM_DIALECT_INFO } from './claude-sdk-stream/info';
import { CLINE_DIALECT_INFO, CLINE_TASK_METADATA_DIALECT_INFO, CLINE_UI_DIALECT_INFO } from './cline/info';
import { CODEX_CLI_DIALECT_INFO } from './codex-cli/info';
import type { DialectInfo } from './descriptor';
import {
  GEMINI_CLI_DIALECT_INFO,
  GEMINI_CLI_JSON_DIALECT_INFO,
  GEMINI_CLI_PROMPT_LOG_DIALECT_INFO,
} from './gemini-cli/info';
import { OPENCODE_DIALECT_INFO } from './opencode/info';
import { PI_DIALECT_INFO } from './pi/info';

// What the page knows of every dialect without parsing one: names, file conventions, detection
// and transcript hooks (each `<id>/info.ts`). The dialects with the code that reads them are
// registry.ts's, in the same order (tests/engine/registry-structure.test.ts): the worker and the
// CLI parse with that one; detection, the session list, the library and the UI use this one.

/** Every dialect the engine knows, in detection order (registry.ts says why this order). */
export const DIALECT_INFOS: readonly DialectInfo[] = [
  CLAUDE_SDK_STREAM_DIALECT_INFO,
  CLAUDE_CODE_DIALECT_INFO,
  CODEX_CLI_DIALECT_INFO,
  CLINE_DIALECT_INFO,
  CLINE_UI_DIALECT_INFO,
  CLINE_TASK_METADATA_DIALECT_INFO,
  GEMINI_CLI_JSON_DIALECT_INFO,
  GEMINI_CLI_DIALECT_INFO,
  GEMINI_CLI_PROMPT_LOG_DIALECT_INFO,
  PI_DIALECT_INFO,
  OPENCODE_DIALECT_INFO,
  ANTHROPIC_MESSAGES_DIALECT_INFO,
  ANTHROPIC_MESSAGES_JSON_DIALECT_INFO,
];

/** The info of a dialect, or undefined for one the engine does not know. */
export function getDialectInfo(id: DialectId | undefined): DialectInfo | undefined {
  return DIALECT_INFOS.find((d) => d.id === id);
}
