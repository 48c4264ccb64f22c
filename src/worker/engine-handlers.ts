// Every request kind's handler: the table the engine host dispatches on.

import type { EngineHandlers } from './engine-host';
import { LEARN_HANDLERS } from './learn-handlers';
import { EROSION_HANDLERS } from './erosion-handlers';
import { REPLAY_HANDLERS } from './replay-handlers';
import { SESSION_HANDLERS } from './session-handlers';
import { SHARE_HANDLERS } from './share-handlers';
import { SUMMARIES_HANDLERS } from './summaries-handlers';
import { USAGE_HANDLERS } from './usage-handlers';
import { SEARCH_HANDLERS } from './search-handlers';
import { WHATIF_HANDLERS } from './whatif-handlers';

export const ENGINE_HANDLERS: EngineHandlers = {
  ...SESSION_HANDLERS,
  ...SUMMARIES_HANDLERS,
  ...REPLAY_HANDLERS,
  ...LEARN_HANDLERS,
  ...SHARE_HANDLERS,
  ...EROSION_HANDLERS,
  ...WHATIF_HANDLERS,
  ...USAGE_HANDLERS,
  ...SEARCH_HANDLERS,
};
