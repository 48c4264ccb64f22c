import type { Server } from 'node:http';

export interface MockRequest {
  method: string;
  path: string;
  hasAuthorization: boolean;
  body: Record<string, unknown>;
  /** The client closed the connection before the answer was complete (a Cancel, a timeout). */
  closedEarly: boolean;
}

export function createMockServer(options?: {
  chunkDelayMs?: number;
  echo?: string[];
}): Server & { requests: MockRequest[] };
