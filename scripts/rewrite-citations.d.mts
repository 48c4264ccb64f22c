// Types of scripts/rewrite-citations.mjs, for the test that imports it.

export interface NoteMapping {
  key: string;
  name: string;
  doc: string;
  titles: [string, string][];
  sections?: Record<string, string | null>;
  idents?: Record<string, string>;
  steps?: string;
  edgeCases?: string;
  rowHints?: [RegExp, string][];
}

export const NOTES: NoteMapping[];

export function rewriteText(
  text: string,
  fileHint?: string,
): {
  text: string;
  found: { line: number; text: string; anchors: string[] }[];
  unmapped: { line: number; text: string; why: string[] }[];
};
