import type { DialectDescriptor } from '../descriptor';
import { PI_DIALECT_INFO } from './info';
import { toPiMessageRecords } from './message-records';
import { createPiNormalizer } from './normalizer';

// pi as the worker and the CLI read it: its info (info.ts), its normalizer, and its entries as a
// summary request reads them (message-records.ts).

export const PI_DIALECT: DialectDescriptor = {
  ...PI_DIALECT_INFO,
  createNormalizer: createPiNormalizer,
  createMessageReader: () => toPiMessageRecords,
};
