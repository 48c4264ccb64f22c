import type { LoadFile } from '../../worker/protocol';

// The bundled sample: public/samples/index.json lists a main transcript and its subagent files,
// by paths relative to that folder. Fetched from the same origin, then loaded like dropped files.

/** Relative to the page, so the app also works under a sub-path. */
const SAMPLE_INDEX_URL = 'samples/index.json';

function asPath(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null) {
    for (const key of ['path', 'file', 'name', 'url'] as const) {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}

/** Accepts `["a.jsonl", …]`, `{files: [...]}`, `{main, subagents}` or `{sessions: [{files}]}`. */
function parseSampleIndex(json: unknown): string[] {
  if (Array.isArray(json)) return json.map(asPath).filter((p): p is string => p !== undefined);
  if (typeof json !== 'object' || json === null) return [];
  const index = json as Record<string, unknown>;
  if (Array.isArray(index.sessions) && index.sessions.length > 0) return parseSampleIndex(index.sessions[0]);
  if (Array.isArray(index.files)) return parseSampleIndex(index.files);
  const paths: string[] = [];
  const main = asPath(index.main);
  if (main) paths.push(main);
  for (const key of ['subagents', 'agents', 'sidechains'] as const) {
    const list = index[key];
    if (Array.isArray(list)) paths.push(...parseSampleIndex(list));
  }
  return paths;
}

/** Fetches the sample's files as blobs. Throws when there is no sample. */
export async function fetchSampleFiles(signal: AbortSignal): Promise<LoadFile[]> {
  const indexUrl = new URL(SAMPLE_INDEX_URL, document.baseURI);
  const response = await fetch(indexUrl, { signal });
  if (!response.ok) throw new Error(`no bundled sample (${indexUrl.pathname}: HTTP ${response.status})`);
  const paths = parseSampleIndex(await response.json());
  if (paths.length === 0) throw new Error(`${indexUrl.pathname} lists no files`);
  const files = await Promise.all(
    paths.map(async (path, i): Promise<LoadFile | undefined> => {
      const url = new URL(path, indexUrl);
      if (url.origin !== indexUrl.origin) throw new Error(`sample file ${path} is not on this site`);
      const file = await fetch(url, { signal });
      // The main transcript is required; a missing subagent file only leaves its rows out.
      if (!file.ok && i === 0) throw new Error(`${path}: HTTP ${file.status}`);
      return file.ok ? { name: path, blob: await file.blob() } : undefined;
    }),
  );
  return files.filter((f): f is LoadFile => f !== undefined);
}

/** Whether `name` is the sample's main file's name (a link made on the sample names it). */
export async function isSampleMainFile(name: string): Promise<boolean> {
  if (!name) return false;
  try {
    const response = await fetch(new URL(SAMPLE_INDEX_URL, document.baseURI));
    if (!response.ok) return false;
    const main = parseSampleIndex(await response.json())[0];
    return main !== undefined && (main.split('/').pop() ?? main) === name;
  } catch {
    return false;
  }
}
