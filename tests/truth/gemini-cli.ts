import { parseJsonLines, type Raw, type Truth, type TruthCall, type TruthCompaction } from './types';

// Gemini CLI chat files (~/.gemini/tmp/<project hash>/chats/session-*.json, or the newer `.jsonl`
// log of the same messages), read from their raw records alone.
//
// * The `.json` document is `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`;
//   each message is `{id, timestamp, type: 'user' | 'gemini' | 'info' | …, content, …}`. In the
//   `.jsonl` log each line is one such message (a later line with the same id replaces it).
// * API calls: a `gemini` message carries the model's answer and, where the response reported
//   usage, `tokens: {input, output, cached, thoughts, tool, total}`. Each `gemini` message is one
//   request; one without `tokens` (or with a `tokens` that is not an object of numbers) has no
//   recorded context. Not a request: a `gemini` message with no `tokens`, empty content, no
//   thoughts and only cancelled tool calls, right after a non-`gemini` message (the CLI's
//   "Request cancelled." notice): the recorder's holder of those calls.
// * Context per call: `tokens.input` (Gemini's promptTokenCount: the whole prompt, cached included).
// * Compactions: Gemini CLI's chat compression replaces the history in memory and writes no record
//   of its own; what the file keeps is the notice the CLI showed, an `info` message that starts
//   "IMPORTANT: This conversation exceeded the compress threshold." and ends "(compressed from: N
//   to M tokens)." (a real chat of fabien-lessirard/dotfiles has one); from v0.33.0 it reads
//   "Context compressed from X% to Y%." (useGeminiStream.ts, gemini-cli@1e2afbb5), X% of the
//   1,048,576-token limit. Each is an automatic compaction after the calls before it, N (or X% of
//   the limit, rounded) its tokens before.

const messagesOf = (text: string): Raw[] => {
  try {
    const doc = JSON.parse(text);
    if (Array.isArray(doc?.messages)) return doc.messages;
  } catch {
    // JSON lines
  }
  const byId = new Map<string, Raw>();
  let n = 0;
  for (const r of parseJsonLines(text)) {
    if (typeof r.type !== 'string') continue; // the header line
    byId.set(typeof r.id === 'string' ? r.id : `line ${n++}`, r);
  }
  return [...byId.values()];
};

/** The calls of one Gemini CLI chat file. */
export function readGeminiCliTruth(text: string): Truth {
  const calls: TruthCall[] = [];
  const compactions: TruthCompaction[] = [];
  let prior: Raw | undefined;
  for (const m of messagesOf(text)) {
    const content = typeof m?.content === 'string' ? m.content : '';
    if (
      m?.type === 'info' &&
      content.startsWith('IMPORTANT: This conversation exceeded the compress threshold.')
    ) {
      const from = /compressed from: (\d+) to/.exec(content)?.[1];
      compactions.push({
        kind: 'compact',
        afterCall: calls.length - 1,
        preTokens: from ? Number(from) : undefined,
      });
      continue;
    }
    const percent = m?.type === 'info' ? /^Context compressed from (\d+)% to \d+%\.$/.exec(content) : null;
    if (percent) {
      compactions.push({
        kind: 'compact',
        afterCall: calls.length - 1,
        preTokens: Math.round((Number(percent[1]) / 100) * 1_048_576),
      });
      continue;
    }
    const previous = prior;
    prior = m;
    if (m?.type !== 'gemini') continue;
    // The recorder's holder of cancelled tool calls, not a response: written after the
    // "Request cancelled." notice with no tokens, no text and no thoughts of its own
    // (chatRecordingService.ts `recordToolCalls`, gemini-cli v0.39.1:517-560).
    const tools = Array.isArray(m.toolCalls) ? m.toolCalls : [];
    if (
      previous?.type !== 'gemini' &&
      m.tokens === undefined &&
      content === '' &&
      !(Array.isArray(m.thoughts) && m.thoughts.length > 0) &&
      tools.length > 0 &&
      tools.every((t: Raw) => t?.status === 'cancelled')
    )
      continue;
    const input = m.tokens?.input;
    calls.push({ id: String(m.id), contextTokens: typeof input === 'number' ? input : undefined });
  }
  return { calls, compactions };
}
