// A diagnostic, not a product entry: what the HTTP and GraphQL layers cost a hook. It starts the service as
// src/main.ts does (one process), plus a second listener on bare node:http that takes `POST /hooks/<org>/<provider>`
// in one of these ways (BENCH_DIRECT_HOOK) and passes every other request on to the service's own port:
//   node      straight into the ingest service (services.ingest.receive: the same target lookup, authentication,
//             budgets, vote write through the write thread, hook request log, metrics and live feed as a hook; the
//             path's own parts only, as the benchmark sends: no query string, no path secret, no body limit);
//   graphql   through graphql-js's execution of the hook route's receiveVote document, without Express;
//   express   through an Express app with one route (express.raw, then the ingest service), without GraphQL;
//   rest      through an Express app with only the hook routes of rest-compat/ (express.raw, the REST mapping,
//             GraphQL's execution): the service's own hook path without its other middleware.
// bench/ingest.ts runs it for BENCH_DIRECT_HOOK=<way> (BENCHMARKS.md "What the layers cost a hook"). It answers 200
// {"data":{"received":true,"vote_id":…,"duplicate":…}} as the hook route does, or 500 when the vote was not taken.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import { execute, parse } from 'graphql';
import { environment, loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/base/logger.js';
import { createApp } from '../../src/app/app.js';
import { schema } from '../../src/app/schema.js';
import { createLoaders } from '../../src/graphql/loaders.js';
import type { GraphQLContext } from '../../src/graphql/context.js';
import { HOOK_BODY_LIMIT_BYTES, type HookDelivery, type HookReceipt } from '../../src/modules/votes/ingest.service.js';
import { HOOK_ROUTES, createRestRouter } from '../../rest-compat/router.js';
import { hookRequest } from '../../src/http/hook-request.js';

const WAYS = ['node', 'graphql', 'express', 'rest'] as const;
const way = process.env.BENCH_DIRECT_HOOK as (typeof WAYS)[number];
if (!WAYS.includes(way)) throw new Error(`BENCH_DIRECT_HOOK must be one of ${WAYS.join(', ')}`);

const { env, file } = environment();
const config = loadConfig(env, undefined, file);
const logger = createLogger(config.logLevel, { format: 'json' });
const app = createApp(config, { logger });
const running = await app.start();
const HOOK = /^\/hooks\/([^/?]+)\/([^/?]+)\/?$/;
const RECEIVE_VOTE = parse(HOOK_ROUTES[0].document);

const contextFor = (clientIp: string, hookRequest?: GraphQLContext['hookRequest']): GraphQLContext => ({
  deps: running.deps,
  services: running.services,
  auth: { kind: 'anonymous' },
  requestId: 'req_direct',
  clientIp,
  loaders: createLoaders(running.services),
  ...(hookRequest ? { hookRequest } : {}),
});

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

const answerOf = (receipt: HookReceipt) => ('voteId' in receipt ? { received: true, vote_id: receipt.voteId, duplicate: receipt.duplicate } : receipt);

function passOn(req: IncomingMessage, res: ServerResponse) {
  const upstream = httpRequest({ host: '127.0.0.1', port: running.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
}

/** node and graphql: the body read here, the vote taken by the service or by receiveVote's resolver. */
async function bare(req: IncomingMessage, res: ServerResponse, org: string, provider: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const clientIp = req.socket.remoteAddress ?? 'unknown';
  let data: unknown;
  try {
    const delivery: HookDelivery = {
      orgSlug: decodeURIComponent(org),
      providerKey: decodeURIComponent(provider),
      method: 'POST',
      headers: headersOf(req),
      query: {},
      rawBody: Buffer.concat(chunks),
      path: req.url ?? '',
    };
    if (way === 'node') data = answerOf(await running.services.ingest.receive(delivery, { clientIp }));
    else {
      const result = await execute({
        schema,
        document: RECEIVE_VOTE,
        contextValue: contextFor(clientIp, delivery),
        variableValues: { input: { orgSlug: delivery.orgSlug, providerKey: delivery.providerKey, method: 'POST' } },
      });
      if (result.errors) throw result.errors[0];
      data = result.data;
    }
  } catch (err) {
    return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: (err as Error).message } }));
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
}

function expressApp(): express.Express {
  const hooks = express();
  hooks.use((req, _res, next) => {
    req.requestId = 'req_direct';
    next();
  });
  const raw = express.raw({ type: () => true, limit: HOOK_BODY_LIMIT_BYTES });
  if (way === 'rest')
    hooks.use(
      '/hooks',
      raw,
      createRestRouter(schema, (req) => contextFor(req.ip ?? 'unknown'), logger, HOOK_ROUTES, '/hooks'),
    );
  else
    hooks.post('/hooks/:org/:provider', raw, async (req, res) => {
      try {
        const receipt = await running.services.ingest.receive(
          { orgSlug: String(req.params.org), providerKey: String(req.params.provider), ...hookRequest(req) },
          { clientIp: req.ip ?? 'unknown' },
        );
        res.json({ data: answerOf(receipt) });
      } catch (err) {
        res.status(500).json({ error: { message: (err as Error).message } });
      }
    });
  return hooks;
}

const viaExpress = way === 'express' || way === 'rest' ? expressApp() : null;
const server = createServer((req, res) => {
  const match = req.method === 'POST' ? HOOK.exec(req.url ?? '') : null;
  if (!match) return passOn(req, res);
  if (viaExpress) return void viaExpress(req, res);
  void bare(req, res, match[1], match[2]);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address ? address.port : 0, servicePort: running.port, way }, 'direct hook listening');
});
const stop = async () => {
  server.close();
  await app.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
