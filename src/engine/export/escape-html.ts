// The one escape for text that goes into HTML or SVG, in element content and in quoted attributes.

import { makeInert } from './inert-text';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes `& < > " '` of the text made inert (`makeInert`: no control sequence, bidi and zero-width
 * characters shown); the result is inert as element content and inside a quoted attribute, and
 * valid XML.
 */
export function escapeHtml(text: string): string {
  return makeInert(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
