/** Pretty-prints one JSONL line (2-space indent); returns the line unchanged when it is not JSON. */
export function formatRawJson(rawLine: string): { text: string; isJson: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(rawLine), null, 2), isJson: true };
  } catch {
    return { text: rawLine, isJson: false };
  }
}
