import {
  type DialectInfo,
  NO_RESTORATION,
  type NotSessionFile,
  type TranscriptConventions,
} from '../descriptor';
import { isObject, type Json } from '../record';

// Gemini CLI as three dialects, what the page knows of them: its chat log's two layouts
// (normalizer.ts reads their messages) and the project's prompt log (prompt-log.ts); index.ts adds
// the normalizers. The record shapes detection asks about are here, shared with the normalizers.

/** Message types that are the CLI's own notices, not the model's or the person's. */
export const NOTICE_TYPES = new Set(['info', 'error', 'warning']);

function isMessage(value: Json): boolean {
  return (
    typeof value.id === 'string' &&
    typeof value.timestamp === 'string' &&
    'content' in value &&
    (value.type === 'user' || value.type === 'gemini')
  );
}

export function isSessionMetadata(value: Json): boolean {
  return typeof value.sessionId === 'string' && typeof value.projectHash === 'string';
}

/** The largest `.json` chat file read whole (bytes); the CLI keeps one document per session. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const NAME = /^session-[\w-]+\.jsonl?$/i;
const FOLDER_FILE = /(?:^|\/)chats\/session-[^/]+\.jsonl?$/i;

const TRANSCRIPT: TranscriptConventions = { knownSystemSubtypes: NOTICE_TYPES };

/** tokenLimits.ts `DEFAULT_TOKEN_LIMIT`, the limit of the Gemini 2.x / 3 models (docs/sources.md#gemini-cli). */
export const GEMINI_DEFAULT_TOKEN_LIMIT = 1_048_576;

/** tokenLimits.ts: the limit Gemini CLI gives a Gemini model id, or undefined for another family. */
export function getGeminiTokenLimit(model: string): number | undefined {
  const id = model.toLowerCase();
  if (!id.includes('gemini')) return undefined;
  if (id.includes('gemini-1.5-pro')) return 2_097_152;
  return GEMINI_DEFAULT_TOKEN_LIMIT;
}

/** The window of a model a Gemini CLI log names: Gemini CLI's token limit for it. */
export function geminiModelWindow(model: string): { tokens: number; why: string } | undefined {
  const tokens = getGeminiTokenLimit(model);
  return tokens === undefined
    ? undefined
    : { tokens, why: `Gemini CLI's token limit for ${model} (tokenLimits.ts, docs/sources.md#gemini-cli)` };
}

const GEMINI_SHELL_TOOLS = ['run_shell_command'];

/** The newer JSONL log, where a message's later copy replaces its earlier ones. */
export const GEMINI_CLI_DIALECT_INFO: DialectInfo = {
  id: 'gemini-cli',
  label: 'Gemini CLI chat log (session-*.jsonl)',
  agent: 'Gemini CLI',
  parsed: true,
  // Its shell tool, by the name the logs hold (google-gemini/gemini-cli@00068e9c5152bdbb6a3c3b8e8694eeed2cd2824e:
  // packages/core/src/tools/definitions/base-declarations.ts:55, SHELL_TOOL_NAME).
  shellTools: GEMINI_SHELL_TOOLS,
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/chats/session-*.jsonl',
    matchName: (baseName) => NAME.test(baseName) && /\.jsonl$/i.test(baseName),
    // Its first line (the session metadata, without `messages`) or any message line.
    matchRecord: (value) =>
      isObject(value) && ((isSessionMetadata(value) && !('messages' in value)) || isMessage(value)),
    folderFile: (path) => FOLDER_FILE.test(path),
    supersedeKey: (record) =>
      isObject(record) && typeof record.id === 'string' && !isSessionMetadata(record) ? record.id : undefined,
  },
  transcript: TRANSCRIPT,
  defaultStrategyId: 'gemini-cli',
};

/**
 * A chat Gemini CLI saved under a tag: `~/.gemini/tmp/<project-hash>/checkpoint-<tag>.json`, the
 * history as the model's API takes it, a JSON array of `{role: "user" | "model", parts}` (no
 * times, no usage). Seen in real committed ~/.gemini folders (KuantumQuest/MyDotFiles-HyDE,
 * Sm1tee/dotfiles; tags the person chose), where it read as "a JSON array of 61 items, not one
 * record per line".
 */
const GEMINI_CHECKPOINT: NotSessionFile = {
  what: 'a chat Gemini CLI saved under a tag (checkpoint-<tag>.json: the history as sent to the model, without times or usage); the sessions are the chats/session-*.json(l) files beside it',
  matchPath: (path) => /(?:^|\/)\.gemini\/tmp\/[^/]+\/checkpoint-[^/]*\.json$/i.test(path),
  matchRecord: (value) =>
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((c) => isObject(c) && (c.role === 'user' || c.role === 'model') && Array.isArray(c.parts)),
};

/** The older whole-JSON chat file: the same messages under `messages`. */
export const GEMINI_CLI_JSON_DIALECT_INFO: DialectInfo = {
  id: 'gemini-cli-json',
  label: 'Gemini CLI chat file (session-*.json)',
  agent: 'Gemini CLI',
  parsed: true,
  shellTools: GEMINI_SHELL_TOOLS,
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/chats/session-*.json',
    matchName: (baseName) => NAME.test(baseName) && /\.json$/i.test(baseName),
    matchRecord: (value) => isObject(value) && isSessionMetadata(value) && Array.isArray(value.messages),
    // `summary`: the name Gemini CLI's /resume list gives the chat (written once it has one).
    wholeJson: {
      maxBytes: MAX_DOCUMENT_BYTES,
      recordsKey: 'messages',
      sessionIdKey: 'sessionId',
      titleKey: 'summary',
    },
    notSessions: [GEMINI_CHECKPOINT],
  },
  transcript: TRANSCRIPT,
  defaultStrategyId: 'gemini-cli',
};

/** A prompt log grows one short record a prompt; anything larger is not one. */
const MAX_PROMPT_LOG_BYTES = 64 * 1024 * 1024;

const PROMPT_LOG_NAME = /^logs\.json$/i;
const PROMPT_LOG_FOLDER_FILE = /(?:^|\/)\.gemini\/tmp\/[^/]+\/logs\.json$/i;

/** A prompt record: its session, its number in that session, its text. */
interface PromptRecord {
  sessionId: string;
  messageId: number;
  message: string;
  type?: unknown;
  timestamp?: unknown;
}

export function isPrompt(value: unknown): value is PromptRecord {
  return (
    isObject(value) &&
    typeof value.sessionId === 'string' &&
    typeof value.messageId === 'number' &&
    typeof value.message === 'string'
  );
}

/** The project's prompt log (prompt-log.ts reads it). */
export const GEMINI_CLI_PROMPT_LOG_DIALECT_INFO: DialectInfo = {
  id: 'gemini-cli-logs',
  label: 'Gemini CLI prompt log (logs.json: the prompts typed in a project, no model calls)',
  agent: 'Gemini CLI',
  parsed: true,
  restoration: NO_RESTORATION,
  files: {
    location: '~/.gemini/tmp/<project-hash>/logs.json',
    matchName: (baseName) => PROMPT_LOG_NAME.test(baseName),
    matchRecord: (value) => Array.isArray(value) && value.length > 0 && isPrompt(value[0]),
    folderFile: (path) => PROMPT_LOG_FOLDER_FILE.test(path),
    // After the chats opened with it: a chat is the session, the prompt log another's (see
    // parse/other-sessions.ts; a file with no key reads first).
    loadOrderKey: (path) =>
      PROMPT_LOG_NAME.test(path.slice(path.lastIndexOf('/') + 1)) ? 'prompt-log' : undefined,
    wholeJson: { maxBytes: MAX_PROMPT_LOG_BYTES },
  },
  transcript: { knownSystemSubtypes: new Set() },
  defaultStrategyId: 'gemini-cli',
};
