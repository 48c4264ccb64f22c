#!/usr/bin/env node
// A local server that speaks the Anthropic Messages API closely enough for @anthropic-ai/sdk:
// POST /v1/messages (plain or SSE stream), POST /v1/messages/count_tokens, GET /health, CORS.
// Errors on demand: model `mock-401|403|429|500|529|too-long|reset|reset-mid-stream|overloaded-stream|slow|
// hang|hang-mid-stream|malformed-stream|ended-early`
// or header `x-mock-error`. Usage: node mock/anthropic-mock.mjs [port]   (default 8787)
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import {
  cannedSummary,
  closeWithHangs,
  countChars,
  getEchoText,
  getTrigger,
  playRequestFault,
  readBody,
  runFromCommandLine,
  setCors,
  streamPieces,
  trackClose,
} from './common.mjs';

const ERRORS = {
  401: [401, 'authentication_error', 'invalid x-api-key'],
  403: [403, 'permission_error', 'Your API key does not have permission to use the specified resource.'],
  429: [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.'],
  500: [500, 'api_error', 'Internal server error'],
  529: [529, 'overloaded_error', 'Overloaded'],
  'too-long': [400, 'invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum'],
};

function sendError(res, [status, type, message]) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': 'req_mock',
    ...(status === 429 ? { 'retry-after': '7' } : {}),
  });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

function event(res, name, data) {
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Creates the server (not listening). `server.requests` records what it received, keys redacted. */
export function createMockServer({ chunkDelayMs = 8, echo = [] } = {}) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    setCors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://mock');
    if (req.method === 'GET' && url.pathname === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const raw = await readBody(req);
    let body;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      sendError(res, [400, 'invalid_request_error', 'body is not JSON']);
      return;
    }
    const record = {
      method: req.method,
      path: url.pathname,
      hasAuthorization: !!req.headers.authorization || !!req.headers['x-api-key'],
      body,
    };
    requests.push(record);
    trackClose(res, record);
    const trigger = getTrigger(req, body);
    if (playRequestFault(req, res, trigger, { errors: ERRORS, echo, sendError })) return;
    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.ceil(countChars(body) / 4) }));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
      sendError(res, [404, 'not_found_error', `no route ${req.method} ${url.pathname}`]);
      return;
    }
    const text = `${cannedSummary(body.messages ?? [])}${trigger === 'echo-summary' ? `\n${getEchoText(req, echo)}` : ''}`;
    const inputTokens = Math.ceil(countChars(body) / 4);
    const outputTokens = Math.ceil(text.length / 4);
    const model = body.model ?? 'claude-mock';
    const id = `msg_mock_${requests.length}`;
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: inputTokens,
            output_tokens: outputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        }),
      );
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    event(res, 'message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    });
    event(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    event(res, 'ping', { type: 'ping' });
    const complete = await streamPieces(req, res, {
      text,
      trigger,
      delayMs: chunkDelayMs,
      writePiece: (piece) =>
        event(res, 'content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: piece },
        }),
      // Cut off, and quoting the request's key as a careless proxy would: never to be printed.
      malformedEvent: `event: content_block_delta\ndata: {"type":"content_block_delta","proxy":"${getEchoText(req, echo)}","delta":\n\n`,
      writeError: () =>
        event(res, 'error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
    if (!complete) return;
    event(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
    event(res, 'message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: outputTokens },
    });
    event(res, 'message_stop', { type: 'message_stop' });
    res.end();
  });
  server.requests = requests;
  closeWithHangs(server);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runFromCommandLine(
    createMockServer({ echo: process.env.MOCK_ECHO ? [process.env.MOCK_ECHO] : [] }),
    'anthropic-mock',
    8787,
  );
}
