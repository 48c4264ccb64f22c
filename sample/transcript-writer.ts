// Builds Claude Code JSONL records in the on-disk shape (docs/sources.md#fmt-envelope–§7): the common
// envelope, the parentUuid chain, one line per streamed content block, usage on every line.
// It knows nothing about the story being told; `generate-session.ts` drives it.

import { type Rng, randomMessageId, randomRequestId, randomUuid } from './prng';

interface WriterOptions {
  rng: Rng;
  sessionId: string;
  cwd: string;
  version: string;
  gitBranch: string;
  slug: string;
  startMs: number;
  /** Set in subagent and compaction-call files (docs/sources.md#fmt-subagents). */
  agentId?: string;
}

/** Token counts of one API response, as the API reports them. */
export interface UsageTokens {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
}

export type JsonObject = Record<string, unknown>;

export interface StreamedBlock {
  /** The API content block (`thinking`, `text`, `tool_use`). */
  block: JsonObject;
  /** Output tokens of this block; the running sum is the line's `output_tokens` snapshot. */
  outputTokens: number;
  /** Milliseconds after the previous line that this block finished streaming. */
  delayMs: number;
}

export interface WrittenResponse {
  messageId: string;
  requestId: string;
  /** uuid of each line, in block order. */
  uuids: string[];
}

/** Usage object as written by 2.1.x (1-hour cache writes, docs/sources.md#fmt-usage). */
export function createUsageJson(usage: UsageTokens, outputSnapshot: number): JsonObject {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheCreation,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: usage.cacheCreation },
    output_tokens: outputSnapshot,
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
}

export class TranscriptWriter {
  readonly options: WriterOptions;
  /** Lines written and not yet taken by `drain()`, without their trailing newline. */
  private pending: string[] = [];
  /** uuid of the entry the next chained entry hangs from. */
  parent: string | null = null;
  /** The session clock, in epoch milliseconds. */
  clockMs: number;
  gitBranch: string;

  constructor(options: WriterOptions) {
    this.options = options;
    this.clockMs = options.startMs;
    this.gitBranch = options.gitBranch;
  }

  get rng(): Rng {
    return this.options.rng;
  }

  tick(ms: number): string {
    this.clockMs += Math.max(0, Math.round(ms));
    return this.iso();
  }

  iso(ms: number = this.clockMs): string {
    return new Date(ms).toISOString();
  }

  drain(): string[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** Writes any record as is (metadata lines without the envelope, deliberately odd lines). */
  raw(record: JsonObject): void {
    this.pending.push(JSON.stringify(record));
  }

  rawLine(line: string): void {
    this.pending.push(line);
  }

  private head(parentUuid: string | null, logicalParentUuid?: string): JsonObject {
    const o = this.options;
    const head: JsonObject = { parentUuid };
    if (logicalParentUuid !== undefined) head.logicalParentUuid = logicalParentUuid;
    head.isSidechain = o.agentId !== undefined;
    head.userType = 'external';
    head.cwd = o.cwd;
    head.sessionId = o.sessionId;
    head.version = o.version;
    head.gitBranch = this.gitBranch;
    if (o.agentId !== undefined) head.agentId = o.agentId;
    head.slug = o.slug;
    return head;
  }

  /** A user entry; `content` is a string (typed prompt, command tags) or blocks. Returns its uuid. */
  user(
    content: string | JsonObject[],
    fields: {
      before?: JsonObject;
      after?: JsonObject;
      parentUuid?: string | null;
      timestamp?: string;
      /** A uuid chosen earlier (file-history snapshots name the prompt before it is written). */
      uuid?: string;
    } = {},
  ): string {
    const uuid = fields.uuid ?? randomUuid(this.rng);
    const parentUuid = fields.parentUuid !== undefined ? fields.parentUuid : this.parent;
    const record = this.head(parentUuid);
    record.type = 'user';
    record.message = { role: 'user', content };
    Object.assign(record, fields.before);
    record.uuid = uuid;
    record.timestamp = fields.timestamp ?? this.iso();
    Object.assign(record, fields.after);
    this.pending.push(JSON.stringify(record));
    this.parent = uuid;
    return uuid;
  }

  /** One `tool_result` user entry; its parent is the assistant line holding the tool_use. */
  toolResult(args: {
    toolUseId: string;
    content: string | JsonObject[];
    isError: boolean;
    toolUseResult: unknown;
    sourceUuid: string;
    promptId?: string;
  }): string {
    const block: JsonObject = { tool_use_id: args.toolUseId, type: 'tool_result', content: args.content };
    if (args.isError) block.is_error = true;
    const after: JsonObject = { toolUseResult: args.toolUseResult, sourceToolAssistantUUID: args.sourceUuid };
    if (args.promptId !== undefined) after.promptId = args.promptId;
    return this.user([block], { parentUuid: args.sourceUuid, after });
  }

  /**
   * One API response, written as one line per content block sharing `message.id` and
   * `requestId`. Every line carries the usage; `output_tokens` is the streaming snapshot so
   * far, and only the last line has the final count and a `stop_reason` (docs/sources.md#fmt-usage).
   */
  response(model: string, usage: UsageTokens, blocks: StreamedBlock[], stopReason: string): WrittenResponse {
    const messageId = randomMessageId(this.rng);
    const requestId = randomRequestId(this.rng);
    const uuids: string[] = [];
    let streamed = 0;
    blocks.forEach((b, i) => {
      const last = i === blocks.length - 1;
      streamed += b.outputTokens;
      this.tick(b.delayMs);
      const uuid = randomUuid(this.rng);
      const record = this.head(this.parent);
      record.message = {
        model,
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [b.block],
        stop_reason: last ? stopReason : null,
        stop_sequence: null,
        usage: createUsageJson(usage, last ? usage.output : Math.max(1, Math.min(streamed, usage.output))),
      };
      record.requestId = requestId;
      record.type = 'assistant';
      record.uuid = uuid;
      record.timestamp = this.iso();
      this.pending.push(JSON.stringify(record));
      this.parent = uuid;
      uuids.push(uuid);
    });
    return { messageId, requestId, uuids };
  }

  /** A `system` entry. `chain: false` leaves the chain where it was. */
  system(
    subtype: string,
    body: JsonObject,
    fields: {
      parentUuid?: string | null;
      logicalParentUuid?: string;
      tail?: JsonObject;
      chain?: boolean;
    } = {},
  ): string {
    const uuid = randomUuid(this.rng);
    const parentUuid = fields.parentUuid !== undefined ? fields.parentUuid : this.parent;
    const record = this.head(parentUuid, fields.logicalParentUuid);
    record.type = 'system';
    record.subtype = subtype;
    Object.assign(record, body);
    record.timestamp = this.iso();
    record.uuid = uuid;
    Object.assign(record, fields.tail);
    this.pending.push(JSON.stringify(record));
    if (fields.chain !== false) this.parent = uuid;
    return uuid;
  }

  /** A `progress` entry (hook, bash or agent progress), chained from `parentUuid`. */
  progress(data: JsonObject, toolUseID: string, parentToolUseID: string, parentUuid: string | null): string {
    const uuid = randomUuid(this.rng);
    const record = this.head(parentUuid);
    record.type = 'progress';
    record.data = data;
    record.toolUseID = toolUseID;
    record.parentToolUseID = parentToolUseID;
    record.uuid = uuid;
    record.timestamp = this.iso();
    this.pending.push(JSON.stringify(record));
    return uuid;
  }

  /** An `attachment` entry (files put back after /compact, reminders). Chained. */
  attachment(attachment: JsonObject): string {
    const uuid = randomUuid(this.rng);
    const record = this.head(this.parent);
    record.attachment = attachment;
    record.type = 'attachment';
    record.uuid = uuid;
    record.timestamp = this.iso();
    this.pending.push(JSON.stringify(record));
    this.parent = uuid;
    return uuid;
  }
}
