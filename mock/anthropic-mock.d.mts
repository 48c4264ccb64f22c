import type { Server } from 'node:http';

export interface MockRequest {
  method: string;
  path: string;
  hasAuthorization: boolean;
  body: Record<string, unknown>;
}

export function createMockServer(options?: {
  chunkDelayMs?: number;
  echo?: string[];
}): Server & { requests: MockRequest[] };
