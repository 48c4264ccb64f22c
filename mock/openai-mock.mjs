#!/usr/bin/env node
// A local server that speaks the OpenAI chat/completions API the way Ollama, llama.cpp, LM Studio
// and vLLM do: POST /v1/chat/completions (plain or SSE stream with a usage chunk and [DONE]),
// GET /v1/models, GET /health, CORS. Errors on demand: model
// `mock-401|403|429|500|503|529|too-long|reset|reset-mid-stream|slow|hang|hang-mid-stream|malformed-stream|
// ended-early` or header `x-mock-error`.
// Usage: node mock/openai-mock.mjs [port]   (default 8788)
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
  401: [401, 'invalid_api_key', 'Incorrect API key provided.'],
  403: [403, 'permission_denied', 'You are not allowed to use this model.'],
  429: [429, 'rate_limit_exceeded', 'Rate limit reached for requests.'],
  500: [500, 'server_error', 'The server had an error while processing your request.'],
  503: [503, 'server_overloaded', 'The server is overloaded, please try again later.'],
  529: [529, 'server_overloaded', 'Overloaded.'],
  'too-long': [
    400,
    'context_length_exceeded',
    "This model's maximum context length is 8192 tokens. However, your messages resulted in 12000 tokens.",
  ],
};

function sendError(res, [status, code, message]) {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 429 ? { 'retry-after': '3' } : {}),
  });
  res.end(JSON.stringify({ error: { message, type: code, code } }));
}

/** Creates the server (not listening). `server.requests` records what it received. */
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
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'mock' }] }),
      );
      return;
    }
    const raw = await readBody(req);
    let body;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      sendError(res, [400, 'invalid_request', 'body is not JSON']);
      return;
    }
    const record = {
      method: req.method,
      path: url.pathname,
      hasAuthorization: !!req.headers.authorization,
      body,
    };
    requests.push(record);
    trackClose(res, record);
    const trigger = getTrigger(req, body);
    if (playRequestFault(req, res, trigger, { errors: ERRORS, echo, sendError })) return;
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      sendError(res, [404, 'not_found', `no route ${req.method} ${url.pathname}`]);
      return;
    }
    const messages = body.messages ?? [];
    const text = `${cannedSummary(messages.filter((m) => m.role !== 'system'))}${trigger === 'echo-summary' ? `\n${getEchoText(req, echo)}` : ''}`;
    const usage = {
      prompt_tokens: Math.ceil(countChars(body) / 4),
      completion_tokens: Math.ceil(text.length / 4),
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const model = body.model ?? 'mock-model';
    const id = `chatcmpl-mock-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const chunk = (choices, extra = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
      );
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    const complete = await streamPieces(req, res, {
      text,
      trigger,
      delayMs: chunkDelayMs,
      writePiece: (piece) => chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]),
      // Cut off, and quoting the request's key as a careless proxy would: never to be printed.
      malformedEvent: `data: {"id":"chatcmpl-mock","proxy":"${getEchoText(req, echo)}","choices":[{"delta":\n\n`,
    });
    if (!complete) return;
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    if (body.stream_options?.include_usage) chunk([], { usage });
    res.write('data: [DONE]\n\n');
    res.end();
  });
  server.requests = requests;
  closeWithHangs(server);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runFromCommandLine(
    createMockServer({ echo: process.env.MOCK_ECHO ? [process.env.MOCK_ECHO] : [] }),
    'openai-mock',
    8788,
  );
}
