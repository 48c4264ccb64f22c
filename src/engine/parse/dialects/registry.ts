import type { DialectId } from '../../types';
import { ANTHROPIC_MESSAGES_DIALECT, ANTHROPIC_MESSAGES_JSON_DIALECT } from './anthropic-messages';
import { CLAUDE_CODE_DIALECT } from './claude-code';
import { CLAUDE_SDK_STREAM_DIALECT } from './claude-sdk-stream';
import { CLINE_DIALECT, CLINE_TASK_METADATA_DIALECT, CLINE_UI_DIALECT } from './cline';
import { CODEX_CLI_DIALECT } from './codex-cli';
import type { DialectDescriptor } from './descriptor';
import { GEMINI_CLI_DIALECT, GEMINI_CLI_JSON_DIALECT, GEMINI_CLI_PROMPT_LOG_DIALECT } from './gemini-cli';
import { OPENCODE_DIALECT } from './opencode';
import { PI_DIALECT } from './pi';

/**
 * Every dialect the engine knows, with the code that reads it: what the worker's and the CLI's
 * parser take (the page takes descriptors.ts's infos, in the same order). Adding one: its folder
 * (`dialects/<id>/`, an `info.ts` exporting its info and an `index.ts` its descriptor, a fixture
 * and a golden: tests/parse/dialect-structure.test.ts) and a line here and in descriptors.ts.
 * Detection asks them in this order and the first match wins, so a narrower shape comes before a
 * broader one it overlaps (the SDK's stream-json before Claude Code's session records).
 */
export const DIALECTS: readonly DialectDescriptor[] = [
  CLAUDE_SDK_STREAM_DIALECT,
  CLAUDE_CODE_DIALECT,
  CODEX_CLI_DIALECT,
  CLINE_DIALECT,
  CLINE_UI_DIALECT,
  CLINE_TASK_METADATA_DIALECT,
  GEMINI_CLI_JSON_DIALECT,
  GEMINI_CLI_DIALECT,
  GEMINI_CLI_PROMPT_LOG_DIALECT,
  PI_DIALECT,
  OPENCODE_DIALECT,
  // Last: a request list is recognised by its own keys (`messages`, `request.body`), which no
  // agent's log above starts with.
  ANTHROPIC_MESSAGES_DIALECT,
  ANTHROPIC_MESSAGES_JSON_DIALECT,
];

/** The descriptor of a dialect, or undefined for one the engine does not know. */
export function getDialect(id: DialectId | undefined): DialectDescriptor | undefined {
  return DIALECTS.find((d) => d.id === id);
}
