import fs from 'node:fs';
import path from 'node:path';
import { expect, SAMPLES_DIR, test } from './fixtures';

const INDEX = path.join(SAMPLES_DIR, 'index.json');
/** Past the 2,000-character preview the engine keeps of each block, with a margin. */
const PAST_PREVIEW_CHARS = 2_200;
const NEEDLE_CHARS = 24;
const PLAIN = /^[A-Za-z0-9 _.,:;()=+-]+$/;

interface ToolResultBlock {
  type?: string;
  content?: unknown;
}

/** The tool_result blocks of a JSONL line (none when it is not a user record with them). */
function getToolResults(record: unknown): ToolResultBlock[] {
  const content = (record as { message?: { content?: unknown } }).message?.content;
  if (!Array.isArray(content)) return [];
  return (content as ToolResultBlock[]).filter((b) => b?.type === 'tool_result');
}

/** A tool result's text parts (a string, or text blocks). */
function getTexts(block: ToolResultBlock): { text: string }[] {
  if (typeof block.content === 'string') return [{ text: block.content }];
  if (!Array.isArray(block.content)) return [];
  return (block.content as { text?: unknown }[]).filter(
    (p): p is { text: string } => typeof p.text === 'string',
  );
}

/**
 * The record's message with each tool result cut to its preview: what a preview search can see
 * (it never looks at the record's other fields, such as `toolUseResult`).
 */
function getPreviewJson(record: unknown): string {
  const copy = JSON.parse(JSON.stringify(record)) as { message?: unknown };
  for (const block of getToolResults(copy)) {
    if (typeof block.content === 'string') block.content = block.content.slice(0, PAST_PREVIEW_CHARS);
    else for (const part of getTexts(block)) part.text = part.text.slice(0, PAST_PREVIEW_CHARS);
  }
  return JSON.stringify(copy.message ?? null).toLowerCase();
}

/**
 * Plain text that lies deep in some tool result of the main file, and in every line that contains
 * it only there (never in any other file): a preview search finds nothing, a full-text search finds
 * one row per line that contains it.
 */
function findDeepNeedle(
  mainText: string,
  otherTexts: string[],
): { needle: string; lines: number } | undefined {
  const lines = mainText.split('\n').filter((l) => l.trim() !== '');
  const records = lines.map((l) => {
    try {
      return JSON.parse(l) as unknown;
    } catch {
      return undefined;
    }
  });
  const lowerLines = lines.map((l) => l.toLowerCase());
  const others = otherTexts.map((t) => t.toLowerCase());
  for (const record of records) {
    for (const block of getToolResults(record)) {
      for (const { text } of getTexts(block)) {
        for (let at = PAST_PREVIEW_CHARS; at + NEEDLE_CHARS <= text.length; at += 7) {
          const needle = text.slice(at, at + NEEDLE_CHARS);
          if (!PLAIN.test(needle) || !/[a-z]/i.test(needle) || needle.trim() !== needle) continue;
          const lower = needle.toLowerCase();
          if (others.some((o) => o.includes(lower))) continue;
          const hits = records.filter((_, i) => lowerLines[i]!.includes(lower));
          if (hits.every((r) => r !== undefined && !getPreviewJson(r).includes(lower)))
            return { needle, lines: hits.length };
        }
      }
    }
  }
  return undefined;
}

test.describe('full-text search', () => {
  test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

  test('finds text past the preview only with full text on', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('session-header')).toBeVisible();
    const index = (await (await page.request.get('/samples/index.json')).json()) as {
      files: { path: string; role: string }[];
    };
    const main = index.files.find((f) => f.role === 'main') ?? index.files[0]!;
    const read = async (p: string) => (await page.request.get(`/samples/${p}`)).text();
    const others = await Promise.all(index.files.filter((f) => f !== main).map((f) => read(f.path)));
    const found = findDeepNeedle(await read(main.path), others);
    expect(found, 'plain text past the preview of a tool result in the sample').toBeDefined();
    const { needle, lines } = found!;

    const count = page.getByTestId('row-count');
    await expect(count).not.toHaveAttribute('data-shown', '0');
    await page.getByTestId('search-input').fill(needle.toUpperCase());
    await expect(count).toHaveAttribute('data-shown', '0');

    await page.getByTestId('search-full-text').check();
    await expect(count).toHaveAttribute('data-shown', String(lines));
    await expect(page.getByTestId('search-progress')).toBeHidden();
    await expect(page.getByTestId('transcript-row')).toHaveCount(lines);

    await page.getByTestId('search-full-text').uncheck();
    await expect(count).toHaveAttribute('data-shown', '0');
  });
});
