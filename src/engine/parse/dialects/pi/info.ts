import { type DialectInfo, NO_RESTORATION } from '../descriptor';
import { isObject } from '../record';

// pi as a dialect: its session JSONL (an id/parentId tree from session version 2; version 1's
// linear list, whose compactions name their kept range by position) is read by normalizer.ts,
// failed requests (an error or abort with no usage) apart from the calls. What the page knows of
// it; index.ts adds the normalizer.

const NAME = /^\d{4}-\d{2}-\d{2}T[\d-]+Z?_[0-9a-f-]{8,}\.jsonl$/i;
const FOLDER_FILE = /(?:^|\/)\.pi\/agent\/sessions\/.+\.jsonl$/i;

export const PI_DIALECT_INFO: DialectInfo = {
  id: 'pi',
  label: 'pi session (<timestamp>_<uuid>.jsonl)',
  agent: 'pi',
  parsed: true,
  // Its shell tool (badlogic/pi-mono@0507789f7e12ebe347d56ddbecb16b124927e45d:
  // packages/coding-agent/src/core/tools/bash.ts, createBashTool's `name: "bash"`).
  shellTools: ['bash'],
  restoration: NO_RESTORATION,
  defaultStrategyId: 'pi',
  files: {
    location: '~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl',
    matchName: (baseName) => NAME.test(baseName),
    matchRecord: (value) =>
      isObject(value) &&
      ((value.type === 'session' && typeof value.id === 'string' && typeof value.cwd === 'string') ||
        (value.type === 'message' && 'parentId' in value && isObject(value.message)) ||
        // Version 1's compaction names its kept range by position (normalizer.ts).
        (value.type === 'compaction' && ('firstKeptEntryId' in value || 'firstKeptEntryIndex' in value))),
    // A dropped `sessions/` folder, or one project's `--<cwd>--` folder (then only the names say so).
    folderFile: (path) => FOLDER_FILE.test(path) || NAME.test(path.slice(path.lastIndexOf('/') + 1)),
  },
  transcript: {
    knownSystemSubtypes: new Set(['compaction']),
    // The compaction entry is its own summary entry: the text is its `summary`.
    readSummaryText: (record) =>
      isObject(record) && typeof record.summary === 'string' ? record.summary : undefined,
  },
};
