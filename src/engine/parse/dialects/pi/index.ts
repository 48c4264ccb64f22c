import type { DialectDescriptor } from '../descriptor';
import { PI_DIALECT_INFO } from './info';
import { toPiMessageRecords } from './message-records';
import { getPiModelWindow } from './model-window';
import { createPiNormalizer } from './normalizer';

// pi as the worker and the CLI read it: its info (info.ts), its normalizer, and its entries as a
// summary request reads them (message-records.ts); the window its registry gives a model
// (its model-window file).

export const PI_DIALECT: DialectDescriptor = {
  ...PI_DIALECT_INFO,
  createNormalizer: createPiNormalizer,
  createMessageReader: () => toPiMessageRecords,
  modelWindow: getPiModelWindow,
};
