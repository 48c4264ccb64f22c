// Shared parts of the local protocol mocks: CORS, body reading, error triggers, a canned summary.
// No dependencies: node:http only. Used by tests (createMockServer) and Playwright (CLI entry).

/**
 * CORS for a browser page on another origin: echo the origin and the requested headers
 * (a `*` wildcard does not cover `authorization`, which the Anthropic SDK sends).
 */
export function setCors(req, res) {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader(
    'access-control-allow-headers',
    req.headers['access-control-request-headers'] ??
      'authorization, content-type, x-api-key, anthropic-version',
  );
  res.setHeader('access-control-expose-headers', 'retry-after, request-id');
  res.setHeader('access-control-max-age', '600');
  res.setHeader('vary', 'origin');
}

export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Which failure a request asks for: the model name `mock-<what>` or the header
 * `x-mock-error: <what>`. <what> is 401, 403, 429, 500, 529, 503, too-long, reset, reset-mid-stream,
 * overloaded-stream, slow (chunks every 250 ms, for cancelling), hang (never answers),
 * hang-mid-stream (three pieces, then nothing), malformed-stream (three pieces, then an event that
 * is not JSON, quoting the key) or ended-early (three pieces, then a clean end without the final events); or an echo, as careless servers
 * and proxies do (issue 22): echo-key (a 401 whose message quotes the key and `echo` values),
 * echo-html (a 502 HTML error page quoting them), echo-summary (a summary that quotes them).
 */
export function getTrigger(req, body) {
  const header = req.headers['x-mock-error'];
  if (typeof header === 'string' && header) return header;
  const model = typeof body?.model === 'string' ? body.model : '';
  const match = /^mock-(.+)$/.exec(model);
  return match ? match[1] : undefined;
}

/**
 * What an echo quotes: the key the request carried (`x-api-key`, or `authorization: Bearer …`)
 * and the values the server was created with (`echo`: the secrets a test planted).
 */
export function getEchoText(req, echo = []) {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const key = req.headers['x-api-key'] ?? bearer ?? '(no key)';
  return [`key ${key}`, ...echo.map((v) => `saw ${v}`)].join(' ');
}

/** Answers an echo-key or echo-html trigger; true when it did. */
export function sendEcho(req, res, trigger, echo, sendJsonError) {
  const said = getEchoText(req, echo);
  if (trigger === 'echo-key') {
    sendJsonError(res, [401, 'authentication_error', `invalid api key: ${said}`]);
    return true;
  }
  if (trigger === 'echo-html') {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(
      `<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream refused ${said}</p></body></html>`,
    );
    return true;
  }
  return false;
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (b?.type === 'text' ? b.text : b?.type === 'tool_use' ? JSON.stringify(b.input ?? {}) : ''))
    .join('\n');
}

/** Character count of everything in a request body (for fake token counts: chars / 4). */
export function countChars(body) {
  const system = typeof body?.system === 'string' ? body.system : textOf(body?.system);
  return (system?.length ?? 0) + (body?.messages ?? []).reduce((n, m) => n + textOf(m.content).length, 0);
}

/** A short deterministic summary of the request: paths it mentions and the last user text. */
export function cannedSummary(messages) {
  const userTexts = messages
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content).trim())
    .filter(Boolean);
  // The last user message is the summarization prompt; the one before is the user's last request.
  const lastRequest = userTexts.length > 1 ? userTexts[userTexts.length - 2] : (userTexts[0] ?? '');
  const all = messages.map((m) => textOf(m.content)).join('\n');
  const paths = [...new Set(all.match(/(?:\/[\w.@-]+)+\.\w{1,8}/g) ?? [])].slice(0, 5);
  return [
    '<summary>',
    '1. Primary Request and Intent: summarized by the local mock server.',
    `2. Files and Code Sections: ${paths.length ? paths.join(', ') : 'none'}`,
    `3. Optional Next Step: "${lastRequest.replace(/\s+/g, ' ').slice(0, 160)}"`,
    '</summary>',
  ].join('\n');
}

/** Splits text into small pieces, as a model streams it. */
export function pieces(text, size = 12) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Records on `record.closedEarly` whether the client closed the connection before the answer was
 * complete (a Cancel, a timeout), so a test sees the request really stopped on the wire.
 */
export function trackClose(res, record) {
  record.closedEarly = false;
  res.on('close', () => {
    if (!res.writableFinished) record.closedEarly = true;
  });
}

/**
 * `server.close` that first drops the connections a `hang` left open (an open request would keep
 * the server, and the test process, alive).
 */
export function closeWithHangs(server) {
  const close = server.close.bind(server);
  server.close = (callback) => {
    server.closeAllConnections();
    return close(callback);
  };
}

/**
 * The faults a request can ask for before any answer, played the same way by every protocol's
 * mock: `reset` (the connection dropped), `hang` (accepted and never answered, a stuck server:
 * only the client can end it), an HTTP error of `errors` (status, code, message) in the protocol's
 * own shape (`sendError`), an echo (`sendEcho`). True when one was played.
 */
export function playRequestFault(req, res, trigger, { errors, echo, sendError }) {
  if (trigger === 'reset') {
    req.socket.destroy();
    return true;
  }
  if (trigger === 'hang') return true;
  if (errors[trigger]) {
    sendError(res, errors[trigger]);
    return true;
  }
  return sendEcho(req, res, trigger, echo, sendError);
}

/**
 * Streams `text` in small pieces, one `writePiece` call each, `delayMs` apart (250 ms for `slow`),
 * playing the trigger's fault after the third piece: `reset-mid-stream` (the connection dropped),
 * `hang-mid-stream` (nothing more), `malformed-stream` (`malformedEvent`, an event cut off that
 * quotes the request's key, then the end), `ended-early` (a clean end without the final events),
 * `overloaded-stream` (`writeError`, where the protocol has one). True when every piece was sent:
 * the caller then writes its final events.
 */
export async function streamPieces(
  req,
  res,
  { text, trigger, delayMs, writePiece, malformedEvent, writeError },
) {
  const delay = trigger === 'slow' ? 250 : delayMs;
  const parts = pieces(text);
  for (let i = 0; i < parts.length; i++) {
    if (res.destroyed) return false;
    if (i === 3) {
      if (trigger === 'reset-mid-stream') {
        req.socket.destroy();
        return false;
      }
      if (trigger === 'hang-mid-stream') return false;
      if (trigger === 'malformed-stream') {
        res.write(malformedEvent);
        await sleep(delay);
        res.end();
        return false;
      }
      if (trigger === 'ended-early' || (trigger === 'overloaded-stream' && writeError)) {
        if (trigger === 'overloaded-stream') writeError();
        res.end();
        return false;
      }
    }
    writePiece(parts[i]);
    await sleep(delay);
  }
  return true;
}

/** Starts `server` from the command line: `node mock/<name>.mjs [port]`. */
export function runFromCommandLine(server, name, defaultPort) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? defaultPort);
  server.listen(port, '127.0.0.1', () => console.log(`${name} listening on http://127.0.0.1:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
