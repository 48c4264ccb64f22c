import { type DialectDescriptor, NO_RESTORATION } from './descriptor';
import { isObject } from './record';

// Cline's `ui_messages.json` (FORMAT.md §12): an array of `{ts, type: "say"|"ask", …}` the
// extension shows; recognised, not parsed (the API history is `cline.ts`).

export const CLINE_UI_DIALECT: DialectDescriptor = {
  id: 'cline-ui',
  label: 'Cline UI messages (ui_messages.json)',
  restoration: NO_RESTORATION,
  files: {
    matchName: (baseName) => /ui_messages\.json$/i.test(baseName),
    matchRecord: (value) =>
      Array.isArray(value) && isObject(value[0]) && ('say' in value[0] || 'ask' in value[0]),
  },
};
