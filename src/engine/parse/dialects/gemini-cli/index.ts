import type { DialectDescriptor } from '../descriptor';
import { GEMINI_CLI_DIALECT_INFO, GEMINI_CLI_JSON_DIALECT_INFO, geminiModelWindow } from './info';
import { toGeminiMessageRecords } from './message-records';
import { geminiNormalizer } from './normalizer';
import type { FileToolSpec } from '../descriptor';
import { isObject } from '../record';
import { createShellReadTool } from '../shared/shell-reads';

/** A glob's characters: a `read_many_files` entry holding one is a pattern, not a file. */
const GLOB = /[*?[{]/;

/**
 * Gemini CLI's file tools (google-gemini/gemini-cli@5411f113cafae26161b4969b0237b8e1e024e2c2:
 * packages/core/src/tools/definitions/base-declarations.ts:51 `read_file`, :56 `run_shell_command`,
 * :61 `write_file`, :65 `replace`, :86-87 `read_many_files` and its `include`; :16 `file_path`).
 * Earlier releases named read_file's path `absolute_path` (15 of the corpora's 452 calls).
 */
const GEMINI_FILE_TOOLS: readonly FileToolSpec[] = [
  { name: 'read_file', action: 'read', pathKeys: ['file_path', 'absolute_path'] },
  { name: 'write_file', action: 'write', pathKeys: ['file_path'] },
  { name: 'replace', action: 'edit', pathKeys: ['file_path'] },
  {
    name: 'read_many_files',
    // Its `include` lists paths and glob patterns: the paths are files read, the patterns are not named.
    readFiles: (input) => {
      const include = isObject(input) ? input.include : undefined;
      const list = Array.isArray(include) ? include : typeof include === 'string' ? [include] : [];
      return list.flatMap((p) =>
        typeof p === 'string' && p !== '' && !GLOB.test(p) ? [{ path: p, action: 'read' as const }] : [],
      );
    },
  },
  createShellReadTool('run_shell_command'),
];

// Gemini CLI's three dialects as the worker and the CLI read them: their infos (info.ts) and
// normalizers (normalizer.ts for the chat log's two layouts, prompt-log.ts for the prompt log), and
// the chat's messages as a summary request reads them (message-records.ts).
export { GEMINI_CLI_PROMPT_LOG_DIALECT } from './prompt-log';

/** The newer JSONL log, where a message's later copy replaces its earlier ones. */
export const GEMINI_CLI_DIALECT: DialectDescriptor = {
  ...GEMINI_CLI_DIALECT_INFO,
  createNormalizer: () => geminiNormalizer,
  createMessageReader: () => toGeminiMessageRecords,
  fileTools: GEMINI_FILE_TOOLS,
  modelWindow: geminiModelWindow,
};

/** The older whole-JSON chat file: the same messages under `messages`. */
export const GEMINI_CLI_JSON_DIALECT: DialectDescriptor = {
  ...GEMINI_CLI_JSON_DIALECT_INFO,
  createNormalizer: () => ({ ...geminiNormalizer, dialect: 'gemini-cli-json' }),
  createMessageReader: () => toGeminiMessageRecords,
  fileTools: GEMINI_FILE_TOOLS,
  modelWindow: geminiModelWindow,
};
