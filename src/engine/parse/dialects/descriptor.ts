import type { DialectId, Entry, FileRole, Session } from '../../types';
import type { RecordNormalizer } from './record';

// A dialect is data (STYLE.md §11): everything generic code needs to know about one input format,
// in one descriptor exported by the dialect's own file and listed once in `registry.ts`. Generic
// code (detection, the session builder, replay preparation, the UI) loops over descriptors and
// never names an agent.

/**
 * Which tools' calls say what a post-compaction restoration re-attaches (Claude Code's
 * `bD5`/`fD5`, docs/sources.md#ccs-context-preservation). Empty lists: the agent restores nothing.
 */
export interface RestorationHints {
  /** Tools whose tool_use names the file it touches (`block.filePath`). */
  readonly fileTools: readonly string[];
  /** Of those, the ones whose result holds the file's contents. */
  readonly readTools: readonly string[];
  /** Of those, the ones whose input holds the whole new file (its size is the input's). */
  readonly wholeWriteTools: readonly string[];
  /** The tool whose input is the todo list, re-attached as a whole. */
  readonly todoTool?: string;
  /** The tool whose input is the plan (plan mode). */
  readonly planTool?: string;
  /** Paths of plan files, re-attached as the plan. */
  readonly planPath?: RegExp;
  /** The tool that invokes a skill; the meta user message after its result is the skill's body. */
  readonly skillTool?: string;
  /** The tool that enters plan mode (`planTool` leaves it). */
  readonly planModeTool?: string;
  /** Attachment types that carry hook output: before the first call, the SessionStart hooks'. */
  readonly hookAttachments?: readonly string[];
}

/** What a tool call does to a file (the built-in summary's "read", "edited", "written", "deleted"). */
export interface FileTouchRead {
  readonly path: string;
  readonly action: 'read' | 'edit' | 'write' | 'delete';
}

/**
 * One of an agent's tools that reads or changes files, by its tool_use name exactly as the agent's
 * tool schema names it, and where its input names the file (the span digest: the built-in
 * summary's files, retention's paths). A call no dialect lists touches no file.
 */
export interface FileToolSpec {
  readonly name: string;
  /** What the call does to the file its `pathKeys` name. */
  readonly action?: FileTouchRead['action'];
  /** Input keys holding the file's path, tried in order (the first string wins). */
  readonly pathKeys?: readonly string[];
  /** The files an input names in its own syntax (a patch's headers, a shell command's operands). */
  readonly readFiles?: (input: unknown) => FileTouchRead[];
}

/** A file's part in a dropped set, as its name says. */
export interface FileRoleMatch {
  readonly role: Exclude<FileRole, 'main' | 'session-memory'>;
  /** The agent id the name carries (`agent-<id>.jsonl`). */
  readonly agentId?: string;
}

/** How a dialect lays out its files and names them (detection and the drop's folder walk). */
/** A metadata file read whole (see `DialectFiles.metadata`). */
export interface MetadataFileText {
  fileIndex: number;
  /** The agent id its name gives: the log it describes. */
  agentId: string;
  text: string;
}

/**
 * A file an agent keeps beside its sessions that is not one (its prompt history): left out of a
 * folder's walk, and named when opened alone instead of "not a transcript".
 */
export interface NotSessionFile {
  /** What it is, for the message: "Claude Code's prompt history (…)". */
  readonly what: string;
  /** By its path within a folder. */
  readonly matchPath: (path: string) => boolean;
  /** By one of its records, whatever its name. */
  readonly matchRecord: (value: unknown) => boolean;
}

/**
 * `NotSessionFile.matchPath` for a file the agent keeps in its own folder (`.codex/history.jsonl`),
 * or at the top of the folder opened (that folder is the agent's: a walk from inside it does not
 * name it). Case-insensitive, as the paths of a walk on any system.
 */
export function matchAgentFolderFile(folder: string, name: string): (path: string) => boolean {
  const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?:^|/)${quote(folder)}/${quote(name)}$|^${quote(name)}$`, 'i');
  return (path) => pattern.test(path);
}

export interface DialectFiles {
  /** Where the agent writes these files, as the UI tells a user where to look. */
  readonly location?: string;
  /** True when the file name (its last path segment) alone says this dialect. */
  readonly matchName?: (baseName: string) => boolean;
  /**
   * True when one parsed JSON value proves this dialect: a JSON line, or for a one-line or
   * pretty-printed file, the whole of it. Tried in registry order; the first yes wins.
   */
  readonly matchRecord?: (value: unknown) => boolean;
  /** Files a dropped folder's walk takes (by path within the drop). */
  readonly folderFile?: (path: string) => boolean;
  /**
   * A file that is not the main transcript (a subagent's, a compaction call's), by its name and
   * the names of the files dropped with it (`baseNames`, its own included).
   */
  readonly fileRole?: (baseName: string, baseNames: readonly string[]) => FileRoleMatch | undefined;
  /**
   * The order its files are read in, as a sort key from the path (undefined: by drop order, before
   * keyed files): OpenCode's file per message and per part; Gemini CLI's prompt log after its chats.
   */
  readonly loadOrderKey?: (path: string) => string | undefined;
  /**
   * Groups a folder's files into sessions for a dialect whose session spans many files; the
   * paths it groups are left out of the generic grouping (`engine/library/group-files.ts`).
   */
  readonly groupFiles?: (paths: readonly string[]) => { key: string; paths: string[] }[];
  /** The agent's files that are not sessions (NotSessionFile). */
  readonly notSessions?: readonly NotSessionFile[];
  /**
   * A file the agent keeps beside its sessions that names them (a thread-name index): its file
   * name, and its text read as each session id's name as the agent lists it ('' a name taken
   * back). The library (the page's and `stats`) lists a session under the name the nearest such
   * file in the folders above it gives (engine/library/session-names.ts).
   */
  readonly sessionNames?: {
    readonly fileName: string;
    readonly read: (text: string) => Map<string, string>;
  };
  /** A file the main transcript is loaded after (the UI's drop order), by its path. */
  readonly loadsAfterMain?: (path: string) => boolean;
  /**
   * Plain text kept with the session (Claude Code's session memory), by path; `withTranscript`:
   * a transcript was dropped with it, so a looser name is enough.
   */
  readonly sessionMemory?: (path: string, withTranscript: boolean) => boolean;
  /**
   * Set when a file is one JSON value, not JSON lines: its top-level array holds the records
   * (Cline's `api_conversation_history.json`), or with `recordsKey` the array at that key of a
   * top-level object (`{"messages": [...]}`). The file is read whole up to `maxBytes` and each
   * array element goes through the normalizer with its own byte range and line.
   */
  readonly wholeJson?: {
    readonly maxBytes: number;
    readonly recordsKey?: string;
    /** A top-level object (not an array) is the file's one record (a pasted API request). */
    readonly objectIsRecord?: boolean;
    /** With `recordsKey`: the object's key beside the records that names the file's session. */
    readonly sessionIdKey?: string;
    /** With `recordsKey`: the key beside the records that holds the session's name in the agent's list. */
    readonly titleKey?: string;
  };
  /**
   * For logs that append a record again each time it changes (Gemini CLI's JSONL chat log): the
   * key a later record shares with the earlier copies it replaces, undefined for a record that
   * replaces nothing. The file's records are then held until its end: each key's latest record
   * takes the place of its first copy (its own line and bytes), and the earlier copies are
   * counted on `SessionFile.foldedCopies`, never added as entries.
   */
  readonly supersedeKey?: (record: unknown) => string | undefined;
  /**
   * Small metadata files next to the logs (Claude Code's `agent-<id>.meta.json`): read whole, never
   * transcripts. `agentIdOf` says whether a path is one (and which log it describes); `apply`
   * folds them into the built session, reporting unreadable ones through `warn`.
   */
  readonly metadata?: {
    agentIdOf(path: string): string | undefined;
    apply(
      session: Session,
      files: readonly MetadataFileText[],
      warn: (fileIndex: number, reason: string) => void,
    ): void;
  };
}

export type UserTextKind = 'command' | 'previous-summary' | 'interrupt';

export interface TodoItem {
  content: string;
  status: string;
}

/**
 * What generic code asks a dialect about its texts: the session builder about entries (docs/sources.md#fmt-entry-types, #fmt-compaction), the span digest and retention about the user texts of a request.
 */
export interface TranscriptConventions {
  /** User text the agent wrote rather than the person (command output, reminders): not a turn. */
  readonly isInjectedUserText?: (text: string) => boolean;
  /**
   * Whether a user text traces a slash command (re-attached after a compaction), and a manual
   * compact's instructions when it names them.
   */
  readonly readCommandTrace?: (text: string) => { isTrace: boolean; compactInstructions?: string };
  /** Wrappers the agent puts around user text (reminders, caveats), removed before reading it. */
  readonly stripInjected?: (text: string) => string;
  /**
   * What a (stripped) user text is when the agent wrote or framed it: a command as typed, the
   * continuation summary, an interruption; `null` for agent output with nothing a person typed;
   * undefined when the text is not the agent's (a plain request).
   */
  readonly readUserText?: (text: string) => { kind: UserTextKind; text: string } | null | undefined;
  /**
   * The person's words the agent wraps in a tool's result text (Cline: the feedback on a
   * completion, the answer to its question), which `isInjectedUserText` drops with the rest;
   * undefined when the text holds none.
   */
  readonly readPersonInResult?: (text: string) => string | undefined;
  /** The project instructions the agent pasted into a user text (Claude Code's CLAUDE.md), whole. */
  readonly projectInstructions?: (text: string) => string[];
  /**
   * The todo list after a tool call, when the call is one of the agent's todo tools (undefined
   * otherwise). `tasks` keeps per-id items across calls for tools that edit one item at a time.
   */
  readonly applyTodoTool?: (
    use: { name: string; input: unknown },
    todos: TodoItem[],
    tasks: Map<string, TodoItem>,
    resultText?: string,
  ) => TodoItem[] | undefined;
  /**
   * A tool call the dialect's summary request carries as the model's text, read back as a call
   * (name and input) for the built-in summary's digest; undefined for any other text.
   */
  readonly readToolCallText?: (text: string) => { name: string; input: unknown } | undefined;
  /** `system` subtypes the dialect models; others are counted as unknown. */
  readonly knownSystemSubtypes?: ReadonlySet<string>;
  /**
   * The summary a compaction's summary entry holds, from its parsed record, for a dialect whose
   * summary is not a message's `message.content` (a compaction entry that keeps it in `summary`).
   */
  readonly readSummaryText?: (record: unknown) => string | undefined;
  /**
   * Why a summary entry's record holds no summary to read, when the dialect knows (Codex's remote
   * compaction: the summary is encrypted); asked when `readSummaryText` gives none.
   */
  readonly readSummaryNote?: (record: unknown) => string | undefined;
  /** The text a cleared tool result starts with (context editing). */
  readonly clearedPlaceholder?: string;
  /**
   * The agent's known defect where a call's recorded output is the usage of the stream's start,
   * not its end, named for the note (parse/understated-output.ts). Unset: the recorded output is
   * the API's own count, and an answer the log holds longer than it is not read as understated.
   */
  readonly understatedOutputCause?: string;
}

/**
 * What the page knows of a dialect (`descriptors.ts`): its data and the small predicates that
 * detect its files and read its conventions, never its normalizer, so the page's first load does
 * not carry the parsing code (issue 20, tests/structure/ui-startup.test.ts). Each dialect's
 * `info.ts` exports it; its `index.ts` adds the normalizer (`DialectDescriptor`, `registry.ts`),
 * for the worker and the CLI.
 */
export interface DialectInfo {
  readonly id: DialectId;
  /** Human name, as the header and the issues name the format. */
  readonly label: string;
  /** The agent named in `Session.meta.agent` (undefined: recognised, not parsed). */
  readonly agent?: string;
  /** The strategy the replay shows first for a log of this dialect. */
  readonly defaultStrategyId?: string;
  /**
   * True when the engine reads its records (its descriptor has `createNormalizer`); false: the
   * format is recognised, and refused as `unsupported-dialect`.
   */
  readonly parsed: boolean;
  /**
   * One normalizer reads all of a session's files of this dialect, in `loadOrderKey` order, so it
   * can keep state across them (OpenCode: a part's file names its message, read before it).
   */
  readonly sharedNormalizer?: boolean;
  /**
   * The call axis: `true` when the log writes a call's usage after its response items (Codex's
   * `token_count`), so a call's first context line is the first of the assistant items before it.
   */
  readonly usageFollowsResponse?: boolean;
  /**
   * Its entries (events aside) are the model-facing history's messages in order, as a truncation's
   * `deletedRange` counts them (Cline's API history, which keeps what a truncation dropped).
   */
  readonly historyIndexed?: boolean;
  readonly restoration: RestorationHints;
  /** The agent's shell tools, by tool_use name (bash-output summarization, boundary scoring). */
  readonly shellTools?: readonly string[];
  /**
   * What a session list needs from a line (`engine/library/scan-session.ts`): a line whose first
   * 1 kB, first 512 bytes of its first nested object and last 512 bytes hold none of these
   * strings is skipped without `JSON.parse`. So they must sit early in the records they mark, in
   * their first object's head or at the line's end. Absent: every line is parsed.
   */
  readonly listNeedles?: readonly string[];
  /**
   * A part of a needed line the list does not need, cut out before the line is decoded: from the
   * first `from` (in the window the needles were found in; kept) to the last `to` (kept). The
   * rest must stay JSON.
   */
  readonly listCut?: { readonly from: string; readonly to: string };
  readonly files: DialectFiles;
  readonly transcript?: TranscriptConventions;
}

/**
 * A message as Claude Code writes it in a session file (`{type, message: {role, content, id?}}`,
 * content in the Anthropic Messages API's blocks): the shape the summarizer's message filter reads
 * (compact/normalize-messages.ts).
 */
export interface MessageRecord {
  type: 'user' | 'assistant';
  message: { role: 'user' | 'assistant'; content: Record<string, unknown>[]; id?: string };
}

/** A dialect with the code that reads it: what the worker's and the CLI's parser take. */
export interface DialectDescriptor extends DialectInfo {
  /** One file's normalizer (a normalizer may keep per-file state); absent: `unsupported-dialect`. */
  readonly createNormalizer?: () => RecordNormalizer;
  /**
   * A reader of the dialect's raw records, in order, as the messages each adds to the
   * conversation, whole (an entry in memory holds previews only): what a summary request, the
   * erosion chain and the retention score are built from. One reader per pass over a span (it may
   * keep state: Cline pairs a result with the call before it). `[]`: the record is no message (an
   * event, a count). Absent: the records are Claude Code's own shape.
   */
  readonly createMessageReader?: () => MessageReader;
  /**
   * The agent's tools that read or change files (FileToolSpec), each with its upstream source: the
   * span digest's files. On the descriptor, not the info: the page never reads a span.
   */
  readonly fileTools?: readonly FileToolSpec[];
  /**
   * The window the agent gives a model id its log names (Gemini CLI's `tokenLimit`; an agent's
   * model registry, by provider), with where that comes from: the log's window when it states none (the
   * window inference in parse/context-window). `providers` are the session's (`SessionMeta.providers`,
   * in the order first seen). Undefined for a model it does not know. On the descriptor, not
   * the info: the worker's and the CLI's, never the page's (a registry's table is no startup weight).
   */
  readonly modelWindow?: (
    model: string,
    providers: readonly string[],
  ) => { tokens: number; why: string } | undefined;
}

/**
 * Reads one raw record as the messages it holds (`DialectDescriptor.createMessageReader`); `entry`
 * is the entry read from it (a record may give more than one: a Cline message and the truncation
 * found before it).
 */
export type MessageReader = (record: unknown, entry: Entry) => MessageRecord[];

export const NO_RESTORATION: RestorationHints = { fileTools: [], readTools: [], wholeWriteTools: [] };
