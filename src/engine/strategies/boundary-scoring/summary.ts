import { estimateTextTokens } from '../../tokens/estimate';
import type { Entry, TokenCount } from '../../types';

// The rule-based summary of docs/sources.md#mdd-summarization (no LLM call):
// a system summary (statistics), a tool usage summary, the conversation narrative and the critical
// information with preserved tool results ("Tool Call Preservation"). The document leaves
// `extractTopics`, `summarizeActions`, `extractKeyPoints`, `categorizeErrors`,
// `analyzeToolUsage` and `extractCriticalInformation` undefined; ours are stated beside each
// section. Texts of long blocks are previews: a preserved result's size counts its full length.

interface RuleSummaryOptions {
  /** Messages summarized (the split's index). */
  messageCount: number;
  /** When the split happened (the document's `Date.now()`: ours, the kept message's time, so dumps are stable). */
  timestampMs?: number;
  /** The span's tokens by the strategy's estimator (the "Token Reduction" lines). */
  originalTokens: TokenCount;
  targetRatioPercent: number;
  /** `preserveToolCalls`: the tool usage summary. */
  preserveToolCalls: boolean;
  /** "Tool Result Preservation": critical tools' results copied in full. */
  preserveToolResults: boolean;
  /** "Critical Tool Identification": file-modifying tools. */
  criticalTools: readonly string[];
  /** `isSystemChange`: command fragments that make a shell call critical. */
  systemCommands: readonly string[];
  /** The dialect's shell tools (Claude Code's `Bash`). */
  shellTools: readonly string[];
}

interface RuleSummary {
  /** The summary messages' texts, in order. */
  messages: string[];
  /** Results preserved in full: ids and their full length. */
  preserved: { toolUseId: string; chars: number }[];
  /** Size of all messages, preserved results at their full length (the engine's chars / 4). */
  tokens: TokenCount;
}

interface ToolCall {
  id: string;
  name: string;
  target?: string;
  command?: string;
}

const firstLine = (text: string, max = 80) => {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** `createSummary` of the entries summarized: its messages and their size. Pure. */
export function createRuleBasedSummary(entries: readonly Entry[], o: RuleSummaryOptions): RuleSummary {
  // "Message Grouping".
  const userInputs: string[] = [];
  const assistantResponses: string[] = [];
  const toolCalls: ToolCall[] = [];
  const errors: { toolUseId: string; name: string }[] = [];
  let images = 0;
  let documents = 0;
  const results = new Map<string, { text: string; chars: number; isError: boolean }>();
  const nameOf = new Map<string, string>();
  for (const e of entries) {
    if (e.role === 'user') {
      for (const b of e.blocks) {
        if (b.kind === 'text' && !e.isMeta) userInputs.push(b.text);
        else if (b.kind === 'tool-result') {
          results.set(b.toolUseId, { text: b.text, chars: b.chars, isError: b.isError });
          if (b.isError) errors.push({ toolUseId: b.toolUseId, name: nameOf.get(b.toolUseId) ?? 'unknown' });
        } else if (b.kind === 'image') images++;
        else if (b.kind === 'document') documents++;
      }
    } else if (e.role === 'assistant') {
      for (const b of e.blocks) {
        if (b.kind === 'text') assistantResponses.push(b.text);
        else if (b.kind === 'tool-use') {
          toolCalls.push({ id: b.id, name: b.name, target: b.filePath, command: b.command });
          nameOf.set(b.id, b.name);
        }
      }
    }
  }

  // "Tool Call Preservation › Critical Tool Identification".
  const critical: { call: ToolCall; reason: string }[] = [];
  for (const call of toolCalls) {
    if (o.criticalTools.includes(call.name)) critical.push({ call, reason: 'file_modification' });
    else if (
      o.shellTools.includes(call.name) &&
      call.command !== undefined &&
      o.systemCommands.some((c) => c !== '' && call.command!.includes(c))
    )
      critical.push({ call, reason: 'system_change' });
    else if (results.get(call.id)?.isError) critical.push({ call, reason: 'error_context' });
  }

  const frequency = new Map<string, number>();
  for (const c of toolCalls) frequency.set(c.name, (frequency.get(c.name) ?? 0) + 1);

  // "Conversation Narrative". Ours: topics are the distinct first lines of the user inputs; key
  // points the first line of the last 7 assistant texts; errors grouped by tool name.
  const topics = [...new Set(userInputs.map((t) => firstLine(t)).filter((t) => t !== ''))];
  const narrative = ['## Conversation Summary\n'];
  if (userInputs.length > 0) {
    narrative.push('### User Requests');
    for (const t of topics.slice(0, 5)) narrative.push(`- ${t}`);
    if (topics.length > 5) narrative.push(`- ... and ${topics.length - 5} more topics`);
    narrative.push('');
  }
  if (toolCalls.length > 0) {
    // Ours (`summarizeActions`): per tool, its call count and up to 3 of the files or commands.
    narrative.push('### Actions Performed');
    for (const [name, count] of frequency) {
      const targets = [
        ...new Set(toolCalls.filter((c) => c.name === name).map((c) => c.target ?? c.command ?? '')),
      ]
        .filter(Boolean)
        .slice(0, 3)
        .map((t) => firstLine(t, 60));
      narrative.push(`- ${name} ×${count}${targets.length ? `: ${targets.join(', ')}` : ''}`);
    }
    narrative.push('');
  }
  if (assistantResponses.length > 0) {
    narrative.push('### Key Points Discussed');
    for (const t of assistantResponses.slice(-7)) narrative.push(`- ${firstLine(t)}`);
    narrative.push('');
  }
  if (errors.length > 0) {
    narrative.push('### Issues Resolved');
    const byTool = new Map<string, number>();
    for (const e of errors) byTool.set(e.name, (byTool.get(e.name) ?? 0) + 1);
    for (const [name, count] of byTool) narrative.push(`- ${name} error: ${count} occurrences`);
  }
  const narrativeText = narrative.join('\n');

  // "Tool Summary Generation". Ours (`analyzeToolUsage`): patterns are tool pairs that follow
  // each other 3+ times; key results the first line of each error.
  let toolText: string | undefined;
  if (o.preserveToolCalls && toolCalls.length > 0) {
    const lines = ['## Tool Usage Summary', '', '### Frequency'];
    for (const [name, count] of frequency) lines.push(`- ${name}: ${count} calls`);
    lines.push('');
    const pairs = new Map<string, number>();
    for (let i = 1; i < toolCalls.length; i++) {
      const key = `${toolCalls[i - 1]!.name} → ${toolCalls[i]!.name}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    const patterns = [...pairs].filter(([, n]) => n >= 3);
    if (patterns.length > 0) {
      lines.push('### Common Patterns');
      for (const [p, n] of patterns) lines.push(`- ${p} (${n} times)`);
      lines.push('');
    }
    if (errors.length > 0) {
      lines.push('### Key Results');
      for (const e of errors) lines.push(`- ${e.name}: ${firstLine(results.get(e.toolUseId)?.text ?? '')}`);
    }
    toolText = lines.join('\n');
  }

  // "System Summary Format". Ours (`estimateSummaryTokens`): the other messages' size.
  const restTokens = estimateTextTokens(narrativeText.length + (toolText?.length ?? 0));
  const when = o.timestampMs === undefined ? 'an unknown time' : new Date(o.timestampMs).toISOString();
  const systemText = [
    '# Previous Conversation Summary',
    `Compacted ${o.messageCount} messages at ${when}`,
    '',
    '## Statistics',
    `- User inputs: ${userInputs.length}`,
    `- Assistant responses: ${assistantResponses.length}`,
    `- Tool calls: ${toolCalls.length}`,
    `- Errors encountered: ${errors.length}`,
    `- Images processed: ${images}`,
    `- Documents analyzed: ${documents}`,
    '',
    '## Token Reduction',
    `- Original tokens: ~${o.originalTokens}`,
    `- Compressed to: ~${restTokens}`,
    `- Savings: ~${Math.round(100 - o.targetRatioPercent)}%`,
  ].join('\n');

  // `extractCriticalInformation` (ours): the critical calls as in Scenario 1's "Critical Changes
  // Preserved", then `preserveToolResults`' messages.
  const messages = [systemText];
  if (toolText) messages.push(toolText);
  messages.push(narrativeText);
  const preserved: RuleSummary['preserved'] = [];
  let extraChars = 0;
  if (critical.length > 0) {
    const lines = ['## Critical Changes Preserved'];
    for (const { call, reason } of critical)
      lines.push(`- ${call.name}: ${firstLine(call.target ?? call.command ?? call.id, 100)} (${reason})`);
    messages.push(lines.join('\n'));
    if (o.preserveToolResults)
      for (const { call } of critical) {
        const r = results.get(call.id);
        if (!r) continue;
        messages.push(`[Preserved Tool Result: ${call.id}]\n${r.text}`);
        preserved.push({ toolUseId: call.id, chars: r.chars });
        extraChars += Math.max(0, r.chars - r.text.length);
      }
  }
  let chars = extraChars;
  for (const m of messages) chars += m.length;
  return { messages, preserved, tokens: estimateTextTokens(chars) };
}
