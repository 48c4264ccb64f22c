import { num, parseJsonLines, type Raw, type Truth, type TruthCall, type TruthCompaction } from './types';

// Claude Code's stream-json (`claude -p --output-format stream-json --verbose`, the Agent SDK's
// messages), read from its raw lines alone. The shape: docs/sources.md#fmt-sdk-stream and
// code.claude.com/docs/en/agent-sdk/cost-tracking.
//
// * API calls: each `assistant` line is one content block of a response; the lines of one
//   response share `message.id` ("all messages in that turn share the same ID, so deduplicate by
//   ID"). A call is one distinct `message.id` among main-thread `assistant` lines, in file order.
//   `model: "<synthetic>"` lines are made locally, not by the API.
// * Thread: a subagent's lines carry `parent_tool_use_id` (the Task call that spawned it); the
//   main thread's carry null. Only the main thread's calls and compactions count.
// * Context per call: input_tokens + cache_creation_input_tokens + cache_read_input_tokens of the
//   call's first line (equal on every line of a call; output_tokens is a running placeholder).
// * Compactions: a `system` line with subtype `compact_boundary`, written after the calls it
//   follows; `compact_metadata` {trigger, pre_tokens} gives the trigger and size before.
// * Stated totals: each run (`system/init` … `result`) ends with a `result` line whose `usage`,
//   `total_cost_usd` and `num_turns` are that run's alone ("each query() call … reports its cost
//   independently"): the session's are their sum.

const onMainThread = (r: Raw) => typeof r.parent_tool_use_id !== 'string';

/** The main thread's calls, compactions and stated totals of one stream-json file. */
export function readClaudeSdkStreamTruth(text: string): Truth {
  const calls: TruthCall[] = [];
  const seen = new Set<string>();
  const compactions: TruthCompaction[] = [];
  let stated: Truth['stated'];
  for (const r of parseJsonLines(text)) {
    if (!onMainThread(r)) continue;
    if (r.type === 'assistant' && r.message?.model !== '<synthetic>') {
      const id = r.message?.id ?? r.uuid;
      if (typeof id !== 'string' || seen.has(id)) continue;
      seen.add(id);
      const u = r.message?.usage ?? {};
      calls.push({
        id,
        contextTokens:
          num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens),
      });
    } else if (r.type === 'system' && r.subtype === 'compact_boundary') {
      const meta = r.compact_metadata;
      compactions.push({
        kind: 'compact',
        afterCall: calls.length - 1,
        trigger: typeof meta?.trigger === 'string' ? meta.trigger : undefined,
        preTokens: typeof meta?.pre_tokens === 'number' ? meta.pre_tokens : undefined,
      });
    } else if (r.type === 'result') {
      const u = r.usage ?? {};
      stated ??= { runs: 0, costUsd: 0, inputTokens: 0, outputTokens: 0 };
      stated.runs++;
      stated.costUsd += num(r.total_cost_usd);
      stated.inputTokens +=
        num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
      stated.outputTokens += num(u.output_tokens);
    }
  }
  return stated ? { calls, compactions, stated } : { calls, compactions };
}
