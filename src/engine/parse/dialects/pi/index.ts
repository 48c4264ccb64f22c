import type { DialectDescriptor } from '../descriptor';
import { PI_DIALECT_INFO } from './info';
import { createPiNormalizer } from './normalizer';

// pi as the worker and the CLI read it: its info (info.ts) and its normalizer.

export const PI_DIALECT: DialectDescriptor = { ...PI_DIALECT_INFO, createNormalizer: createPiNormalizer };
