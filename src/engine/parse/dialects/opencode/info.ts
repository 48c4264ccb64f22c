import { type DialectInfo, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';
import { OPENCODE_DB_NAME, OPENCODE_WAL_NAME } from './database-name';
import {
  groupFiles,
  ID_NAME,
  isMessageInfo,
  isPart,
  isSessionInfo,
  loadOrderKey,
  MAX_RECORD_BYTES,
  MESSAGE_PATH,
  PART_PATH,
  SESSION_PATH,
} from './storage';

// OpenCode's session storage as a dialect: a file per session, message and part (storage.ts),
// read in id order by one normalizer for all of them (normalizer.ts, parts.ts). The newer SQLite
// storage (database.ts) becomes the same files, one session at a time, before parsing. What the
// page knows of it; index.ts adds the normalizer.

/** What OpenCode sends in place of a pruned tool output (message-v2.ts `toModelMessages`). */
export const OPENCODE_CLEARED = '[Old tool result content cleared]';

export const OPENCODE_DIALECT_INFO: DialectInfo = {
  id: 'opencode',
  label: 'OpenCode session storage',
  agent: 'OpenCode',
  defaultStrategyId: 'opencode',
  parsed: true,
  sharedNormalizer: true,
  restoration: NO_RESTORATION,
  shellTools: ['bash'],
  files: {
    location:
      '~/.local/share/opencode/storage/ (session/, message/, part/), or ~/.local/share/opencode/opencode.db (with opencode.db-wal)',
    matchName: (baseName) => ID_NAME.test(baseName) || OPENCODE_DB_NAME.test(baseName),
    matchRecord: (value) =>
      isObject(value) && (isMessageInfo(value) || isPart(value) || isSessionInfo(value)),
    folderFile: (path) =>
      SESSION_PATH.test(path) ||
      MESSAGE_PATH.test(path) ||
      PART_PATH.test(path) ||
      OPENCODE_DB_NAME.test(path) ||
      OPENCODE_WAL_NAME.test(path),
    loadOrderKey,
    groupFiles,
    wholeJson: { maxBytes: MAX_RECORD_BYTES, objectIsRecord: true },
  },
  transcript: {
    knownSystemSubtypes: new Set(['compaction', 'prune']),
    clearedPlaceholder: OPENCODE_CLEARED,
  },
};
