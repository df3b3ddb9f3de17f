// createApp(config) → { start, stop }: migrations, database, services and the HTTP surface
// (/graphql, /v1, /hooks, /healthz, /readyz). Construction does nothing; start() does it all.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Config } from '../config/config.js';
import type { AppDeps, Clock } from './deps.js';
import { createDeps } from './create-deps.js';
import { createLogger, type Logger } from '../base/logger.js';
import { applyMigrations, createStorage, databaseUnavailableError, isDatabaseUnavailable } from '../storage/index.js';
import { PLAN_RULES } from '../delivery/callback-kinds/registry.js';
import { createLiveHub, type LiveHub } from '../live-server/sse-hub.js';
import { createGraphQLWebSocket, type GraphQLWebSocket } from '../live-server/graphql-ws.js';
import proxyAddr from 'proxy-addr';
import type { Resolver } from '../net/ssrf-guard.js';
import { createServices, type Services } from './services.js';
import { HOOK_BODY_LIMIT_BYTES } from '../modules/votes/ingest.service.js';
import { schema } from './schema.js';
import { createGraphQLServer } from '../graphql/yoga.js';
import type { GraphQLContext } from '../graphql/context.js';
import { createLoaders } from '../graphql/loaders.js';
import { requestId } from '../http/request-context.js';
import { authenticate, refuseInvalidKey } from '../http/authenticate.js';
import { apiRateLimit } from '../http/rate-limit.js';
import { jsonDepthGuard } from '../http/json-depth-guard.js';
import { dashboard } from '../http/dashboard.js';
import { compress } from '../http/compress.js';
import { securityHeaders } from '../http/security-headers.js';
import { votePageRouter } from '../http/vote-page.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAssets } from '../graphql/graphiql.js';
import { Redis } from 'ioredis';
import { bodyParserError, sendError, sendGraphQLError } from '../http/error-response.js';
import { HOOK_ROUTES, createRestRouter } from '../../rest-compat/router.js';
import { openApiRouter } from '../../rest-compat/openapi.js';
import { createDeliveryWorker, type DeliveryWorker } from '../delivery/worker.js';
import { deliveryThread } from './delivery-thread.js';
import { startVotifierListener, type VotifierListener } from '../votifier-server/listener.js';
import { createAlertScheduler, type AlertScheduler } from '../alerts/scheduler.js';
import { createReminderScheduler, type ReminderScheduler } from '../modules/rewards/reminder-scheduler.js';
import { createRecoveryReconciler, type RecoveryReconciler } from '../recovery/topgg.js';
import { createRetention, type Retention } from '../retention/retention.js';
import { createHookRequestRecorder, type HookRequestRecorder } from '../modules/hook-requests/recorder.js';
import { createMetrics, type Metrics } from '../metrics/metrics.js';
import { countRequests, metricsEndpoint, metricsSources } from '../metrics/http.js';
import { logHookOutcomes, type HookLogLines } from '../modules/hook-requests/log-lines.js';
import { logStartupBanner } from './startup-banner.js';
import { observeUnreadableHooks } from '../http/hook-unreadable.js';
import { countHookOutcomes } from '../modules/hook-requests/hook-metrics.js';
import { deliveringInstanceId, deliversHere, handToDeliveringWorker, sharesPrimaryWriter, takeHandoffs } from './sqlite-cluster.js';
import { portToPrimary } from './ipc-port.js';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** DNS for outbound requests (tests play DNS that changes between save and send). */
  resolver?: Resolver;
  /** Count the statements Prisma sends (deps.db.queryCount()); for tests. */
  countQueries?: boolean;
}

export interface RunningApp {
  url: string;
  port: number;
  /** The Votifier TCP listener's port; null when it is off or could not start. */
  votifierPort: number | null;
  deps: AppDeps;
  services: Services;
  /** Scheduled admin alerts; tests drive `tick()` with an injected clock. */
  scheduler: AlertScheduler;
  reminders: ReminderScheduler;
  /** Votes recovered from top.gg's vote list; tests drive `tick()` with an injected clock. */
  recovery: RecoveryReconciler;
  /** Vote and payload retention; tests drive `tick()` with an injected clock. */
  retention: Retention;
  /** Live-feed subscribers served by the fan-out hub (SSE and WebSocket). */
  liveSubscribers(): number;
  /** The hook request log's recorder; tests `flush()` it to write what is queued now rather than on its timer. */
  hookRequestLog: HookRequestRecorder;
}

const API_BODY_LIMIT = '1mb';

export function buildHttpApp(
  deps: AppDeps,
  services: Services,
  isReady: () => boolean,
  liveHub: LiveHub = createLiveHub(deps, schema),
  yoga = createGraphQLServer(schema, deps, services),
  metrics: Metrics | null = null,
) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.use(requestId);
  app.use(securityHeaders());
  if (metrics) {
    app.use(countRequests(deps.metrics));
    app.get('/metrics', metricsEndpoint(metrics, deps.config.metricsToken));
  }

  app.get('/healthz', async (_req, res) => {
    try {
      await deps.db.ping();
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', database: 'unreachable' });
    }
  });
  app.get('/readyz', async (_req, res) => {
    if (!isReady()) return void res.status(503).json({ status: 'starting' });
    try {
      await deps.db.ping();
      // Without Redis the instance still takes votes; only the cross-instance live feed is paused.
      const redis = deps.feed.status();
      res.json(redis === 'unavailable' ? { status: 'degraded', redis: 'unavailable' } : { status: 'ok', ...(redis === 'ready' ? { redis: 'ok' } : {}) });
    } catch {
      res.status(503).json({ status: 'unavailable', database: 'unreachable' });
    }
  });

  const limits = deps.limits;
  const contextFor = (req: Request): GraphQLContext => ({
    deps,
    services,
    auth: req.auth ?? { kind: 'anonymous' },
    requestId: req.requestId,
    clientIp: req.ip ?? 'unknown',
    loaders: createLoaders(services),
  });

  // Hooks: the exact bytes (signatures cover them), 64 KiB at most. Budgets are spent inside receiveVote (per
  // organization once authenticated, per client address when refused), so /graphql's receiveVote has them too.
  app.use('/hooks', (req: Request, res: Response, next: NextFunction) =>
    // HEAD would reach the GET handler and record a vote; a probe must have no side effects.
    req.method === 'HEAD' ? sendError(res, req.requestId, 'NOT_FOUND', 'Hooks accept POST and GET') : next(),
  );
  app.use('/hooks', express.raw({ type: () => true, limit: HOOK_BODY_LIMIT_BYTES }), createRestRouter(schema, contextFor, deps.logger, HOOK_ROUTES, '/hooks'));
  // A body too large, or not what its Content-Encoding says, is a refused delivery too.
  app.use(
    '/hooks',
    observeUnreadableHooks(deps.hookObservers, (slug, key) => deps.db.votes.findTarget(slug, key)),
  );

  app.use(['/v1', '/graphql'], compress());
  app.use('/v1', express.json({ limit: API_BODY_LIMIT }), jsonDepthGuard('rest'), authenticate(services), apiRateLimit(limits));
  app.use('/v1', openApiRouter(schema)); // GET /v1/openapi.json and the reference page at /v1/reference
  app.use('/v1', createRestRouter(schema, contextFor, deps.logger));

  app.use(GRAPHIQL_ASSETS_PATH, graphiqlAssets()); // GraphiQL's page files: public, before the key check
  app.use(
    '/graphql',
    express.json({ limit: API_BODY_LIMIT }),
    jsonDepthGuard('graphql'),
    authenticate(services),
    refuseInvalidKey,
    apiRateLimit(limits, 'graphql'),
    (req: Request, res: Response) => {
      // voteReceived over SSE: the live hub's shared fan-out; everything else (and every error) through yoga, which
      // receives Express's req/res as its server context (the `req` our context factory reads).
      if (req.path === '/' && liveHub.tryHandle(req, res, contextFor(req))) return;
      return yoga(req, res);
    },
  );

  // The players' vote pages (public; README "Vote page").
  app.use('/vote', compress(), votePageRouter(deps, services.votePage));

  // No API lives at /api: a client that guesses it hears where the API is, in the error envelope, not the dashboard.
  app.use('/api', (req: Request, res: Response) =>
    sendError(
      res,
      req.requestId,
      'NOT_FOUND',
      `No route for ${req.method} /api${req.path}: the REST API is at /v1 (reference: /v1/reference) and GraphQL at /graphql`,
    ),
  );

  // The dashboard at / (after every API route, so none of them can be shadowed by a page).
  app.use(compress(), dashboard());

  app.use((req: Request, res: Response) => sendError(res, req.requestId, 'NOT_FOUND', `No route for ${req.method} ${req.path}`));
  // Express calls this only for errors: body-parser's, or anything a handler threw.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const send = req.originalUrl.startsWith('/graphql') ? sendGraphQLError : sendError;
    const known = bodyParserError(err);
    if (known) return send(res, req.requestId, known.code, known.message, known.details);
    if (isDatabaseUnavailable(err)) {
      deps.logger.warn({ err: (err as Error).message, requestId: req.requestId, path: req.path }, 'database unavailable');
      const unavailable = databaseUnavailableError();
      return send(res, req.requestId, unavailable.code, unavailable.message);
    }
    deps.logger.error({ err, requestId: req.requestId, path: req.path }, 'unhandled request error');
    send(res, req.requestId, 'INTERNAL_ERROR', 'Internal server error');
  });
  return app;
}

/** PORT=0 picks a port at listen time: the default base URLs (not explicit ones) follow the real port. */
function withListeningPort(config: Config, port: number): Config {
  if (config.port !== 0) return config;
  const defaultBase = 'http://localhost:0';
  const publicBaseUrl = config.publicBaseUrl === defaultBase ? `http://localhost:${port}` : config.publicBaseUrl;
  const hookBaseUrl = config.hookBaseUrl === `${defaultBase}/hooks` ? `${publicBaseUrl}/hooks` : config.hookBaseUrl;
  return Object.freeze({ ...config, port, publicBaseUrl, hookBaseUrl });
}

export function createApp(config: Config, options: AppOptions = {}) {
  let server: Server | null = null;
  let liveHub: LiveHub | null = null;
  let graphqlWs: GraphQLWebSocket | null = null;
  let deps: AppDeps | null = null;
  let services: Services | null = null;
  let worker: DeliveryWorker | null = null;
  let scheduler: AlertScheduler | null = null;
  let reminders: ReminderScheduler | null = null;
  let recovery: RecoveryReconciler | null = null;
  let retention: Retention | null = null;
  let metrics: Metrics | null = null;
  let rateLimitRedis: Redis | null = null;
  let votifier: VotifierListener | null = null;
  let hookLogLines: HookLogLines | null = null;
  let hookRequestLog: HookRequestRecorder | null = null;
  let stopTakingHandoffs: (() => void) | null = null;
  let ready = false;

  async function start(): Promise<RunningApp> {
    const logger = options.logger ?? createLogger(config.logLevel, { format: config.logFormat });
    const applied = await applyMigrations(config);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    // A worker of several on SQLite writes through the primary's write thread (./sqlite-cluster.ts).
    const shared = sharesPrimaryWriter(config);
    const db = await createStorage(config, {
      planRules: PLAN_RULES,
      countQueries: options.countQueries,
      writeThread: shared ? { logger, remote: portToPrimary } : config.writeThread ? { logger } : undefined,
    });
    if (config.redisUrl) {
      rateLimitRedis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      rateLimitRedis.on('error', () => {}); // the feed logs Redis outages; limits fall back to memory meanwhile
      // Start with shared counters when Redis answers; never hold the start-up for it.
      await Promise.race([once(rateLimitRedis, 'ready'), new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
    }
    metrics = createMetrics();
    deps = createDeps(config, db, { logger, clock: options.clock, resolver: options.resolver, rateLimitRedis, feedRedisUrl: config.redisUrl, metrics });
    services = createServices(deps);
    hookLogLines = logHookOutcomes(deps.hookObservers, logger);
    countHookOutcomes(deps.hookObservers, deps.metrics);
    hookRequestLog = createHookRequestRecorder(deps); // the hook request log (README "Hook request log")
    hookRequestLog.start();
    liveHub = createLiveHub(deps, schema);
    metrics.observe(metricsSources(deps, liveHub));
    const yoga = createGraphQLServer(schema, deps, services);
    const app = buildHttpApp(deps, services, () => ready, liveHub, yoga, metrics);
    const trusted = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
    graphqlWs = createGraphQLWebSocket(deps, services, yoga, liveHub, (req) => proxyAddr(req, trusted));
    // Slow or idle clients must not hold sockets forever (slowloris): headers and the whole request have deadlines,
    // checked every second (Node's default check runs every 30 s). Long-lived SSE responses are not affected.
    server = createServer(
      {
        headersTimeout: config.httpHeadersTimeoutMs,
        requestTimeout: config.httpRequestTimeoutMs,
        keepAliveTimeout: 5_000,
        connectionsCheckingInterval: Math.min(1_000, config.httpHeadersTimeoutMs),
      },
      app,
    );
    // WebSocket upgrades: graphql-ws on /graphql; anything else is refused.
    server.on('upgrade', (req, socket, head) => {
      if (!graphqlWs?.handleUpgrade(req, socket, head)) socket.destroy();
    });
    server.listen(config.port, config.host);
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    deps.config = withListeningPort(config, port);
    const delivers = deliversHere(config);
    // Worker 1 on SQLite takes the other workers' jobs from the moment its delivery worker starts (./sqlite-cluster.ts).
    let deliveryStartedAt: number | null = null;
    if (delivers && sharesPrimaryWriter(config))
      stopTakingHandoffs = takeHandoffs(
        () => worker,
        config.deliveryLeaseMs,
        () => deliveryStartedAt,
      );
    if (!delivers) {
      // A worker other than 1 on SQLite: its votes' jobs are leased to worker 1 and handed to it (./sqlite-cluster.ts).
      if (config.deliveryEnabled) deps.handoff.attach(handToDeliveringWorker(), deliveringInstanceId(config), config.deliveryLeaseMs);
    } else if (config.deliveryEnabled && config.deliveryThread) {
      const registry = metrics;
      const thread = deliveryThread(
        deps.config,
        logger,
        () => db.connect(),
        (message) => registry.receive(message),
      );
      worker = thread;
      thread.start();
      deliveryStartedAt = Date.now();
      // Ready means delivering: the start-up line waits for the thread's worker (its own leases from before a
      // restart are being taken back by then).
      if (!(await thread.ready(30_000))) logger.warn('the delivery thread has not started within 30 s; hooks are taken, deliveries wait for it');
    } else if (config.deliveryEnabled) {
      worker = createDeliveryWorker(deps, {
        concurrency: config.deliveryConcurrency,
        leaseMs: config.deliveryLeaseMs,
        pollMs: config.deliveryPollMs,
        workerId: config.instanceId,
      });
      worker.start();
      deliveryStartedAt = Date.now();
    }
    // From here on, a new vote's jobs are written leased to this instance's worker and handed to it at once.
    if (worker) deps.handoff.attach(worker, config.instanceId, config.deliveryLeaseMs);
    if (config.votifierPort > 0) {
      // One service without its Votifier port still takes every other vote (and Votifier over HTTP): say so loudly.
      votifier = await startVotifierListener(deps, services.ingest).catch((err: unknown) => {
        logger.error({ err, port: config.votifierPort }, 'the Votifier listener could not start; Votifier over TCP is off');
        return null;
      });
    }
    scheduler = createAlertScheduler(deps, { intervalMs: config.alertsIntervalMs, onQueued: () => worker?.wake() });
    reminders = createReminderScheduler(deps, { intervalMs: config.remindersIntervalMs, batch: config.remindersBatch, onQueued: () => worker?.wake() });
    recovery = createRecoveryReconciler(deps, services.ingest, { intervalMs: config.recoveryIntervalMs });
    retention = createRetention(deps, { intervalMs: config.retentionIntervalMs });
    // Each is off where its interval is 0 (src/base/background-loop.ts); on SQLite with several workers, worker 1's.
    if (delivers) for (const loop of [scheduler, reminders, recovery, retention]) loop.start();
    ready = true;
    await logStartupBanner(logger, deps.config, db, votifier?.port ?? null);
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      votifierPort: votifier?.port ?? null,
      deps,
      services,
      scheduler,
      reminders,
      recovery,
      retention,
      liveSubscribers: () => liveHub?.subscriberCount() ?? 0,
      hookRequestLog,
    };
  }

  /** Stops accepting, lets in-flight requests finish (bounded by SHUTDOWN_TIMEOUT_MS), then closes resources. */
  async function stop(): Promise<void> {
    ready = false;
    // Live streams end cleanly (`complete`) instead of holding the shutdown until its timeout.
    liveHub?.close();
    liveHub = null;
    await graphqlWs?.close();
    graphqlWs = null;
    await votifier?.close();
    votifier = null;
    if (server) {
      const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server?.closeAllConnections(), config.shutdownTimeoutMs);
      await closing;
      clearTimeout(timer);
      server = null;
    }
    hookLogLines?.close(); // after the last request: what it still counts is printed
    hookLogLines = null;
    await hookRequestLog?.stop(); // writes what is still queued
    hookRequestLog = null;
    await scheduler?.stop();
    await reminders?.stop();
    reminders = null;
    await recovery?.stop();
    recovery = null;
    await retention?.stop();
    retention = null;
    stopTakingHandoffs?.();
    stopTakingHandoffs = null;
    deps?.handoff.detach();
    await worker?.stop();
    worker = null;
    services = null;
    rateLimitRedis?.disconnect();
    rateLimitRedis = null;
    if (deps) {
      await deps.feed.close();
      await deps.http.close().catch(() => {});
      await deps.db.close();
      deps = null;
    }
  }

  return { start, stop };
}
