// The plain parse, as a worker's source: read the File as a stream, decode, split at newlines,
// JSON.parse each line. Posts the milliseconds from receiving the File to the last line parsed.
export const BASELINE_WORKER = `
onmessage = async (event) => {
  const started = performance.now();
  const reader = event.data.stream().getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const parts = (rest + decoder.decode(value, { stream: true })).split('\\n');
    rest = parts.pop();
    for (const line of parts) if (line) { JSON.parse(line); lines++; }
  }
  if (rest) { JSON.parse(rest); lines++; }
  postMessage({ ms: performance.now() - started, lines });
};`;
