// The Votifier TCP listener (VOTIFIER_PORT): one port for every organization's Votifier providers, speaking the
// protocol as NuVotifier does (src/votifier/protocol.ts). Each session is greeted with a fresh challenge; the first frame tells v2
// (0x733A) from v1 (anything else: one 256-byte RSA block). A vote is routed to the provider whose token signed it
// (v2) or whose key decrypts it (v1), then received like any hook delivery (ingest.receive: the provider and its
// secret read again, the vote written with its jobs and rollups in one transaction). v2 is answered
// {"status":"ok"} only after that commit, or {"status":"error","cause":…,"error":…}; v1 has no answer (the
// connection closes). Bounds: NuVotifier's frame sizes, a read deadline, connections per address, and the
// address's refused-session budget (routing a v1 block costs one RSA decryption per provider, tried a slice at a
// time so the service keeps answering meanwhile). Sessions refused here, before ingest, are told to the hook
// watchers too (deps.hookObservers, observation.ts refusedBeforeIngest): on a provider's own port as that provider's
// refused request; on the shared port no provider is known (no token or key fit), so they name no organization and
// only the operator's log shows them.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { AppDeps } from '../app/deps.js';
import { AppError, ERROR_STATUS } from '../base/errors.js';
import { peekPoint, takePoint } from '../auth/rate-limits.js';
import type { IngestService } from '../modules/votes/ingest.service.js';
import { refusedBeforeIngest, type HookProtocol, type ObservedProvider } from '../modules/hook-requests/observation.js';
import {
  MAX_V2_FRAME,
  PROTOCOL_2_MAGIC,
  V1_BLOCK_BYTES,
  newChallenge,
  openV1Block,
  parseVotifierKeys,
  privateKeyObject,
  readV2Message,
  v2SignedBy,
} from '../votifier/protocol.js';
import type { KeyObject } from 'node:crypto';
import { backgroundLoop } from '../base/background-loop.js';

/** How long the routing table (every enabled Votifier provider's token and key) is reused before it is read again. */
const ROUTES_TTL_MS = 5_000;
/**
 * A vote no provider matched reads the table again (a provider created or rotated a moment ago), at most this often:
 * refused sessions cannot turn into a stream of reads. The table is only a hint: the matched provider's secret is
 * read again and checked by the delivery path itself.
 */
const ROUTES_MISS_REFRESH_MS = 100;

interface Route {
  slug: string;
  key: string;
  organizationId: string;
  /** What the hook watchers are told of the provider when a session on its own port is refused before ingest. */
  provider: ObservedProvider;
  token: string;
  privateKey: KeyObject;
  /** The provider's own port (VOTIFIER_DEDICATED_PORTS), where it is the only route. */
  port: number | null;
}

type FindRoute = (matches: (route: Route) => boolean) => Promise<Route | null>;

/** Routes tried between two turns of the event loop: a v1 block tries one RSA decryption per route. */
const SCAN_SLICE = 16;

/** The first route that matches, trying a slice at a time so that requests keep being served meanwhile. */
async function scan(routes: Route[], matches: (route: Route) => boolean): Promise<Route | null> {
  for (let i = 0; i < routes.length; i += SCAN_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const found = routes.slice(i, i + SCAN_SLICE).find(matches);
    if (found) return found;
  }
  return null;
}

export interface VotifierListener {
  port: number;
  close(): Promise<void>;
}

export function createVotifierRoutes(deps: AppDeps, onLoad: (routes: Route[]) => void = () => {}) {
  let routes: Route[] = [];
  let loadedAt = -Infinity;
  let loading: Promise<Route[]> | null = null;

  async function load(): Promise<Route[]> {
    const rows = await deps.db.prisma.provider.findMany({
      where: { authMethod: 'votifier', enabled: true, organization: { status: { not: 'suspended' } } },
      select: {
        id: true,
        key: true,
        organizationId: true,
        authMethod: true,
        authField: true,
        authTimestampField: true,
        payloadSource: true,
        authValueEnc: true,
        votifierPort: true,
        organization: { select: { slug: true } },
      },
      orderBy: { createdAt: 'asc' },
    });
    const next: Route[] = [];
    for (const row of rows) {
      // One unreadable row (a secret sealed with another key, a damaged key) leaves that provider out, not everyone.
      try {
        const keys = parseVotifierKeys(deps.secrets.open(row.authValueEnc));
        if (!keys) continue;
        const provider = {
          id: row.id,
          key: row.key,
          authMethod: row.authMethod,
          authField: row.authField,
          authTimestampField: row.authTimestampField,
          payloadSource: row.payloadSource,
        };
        next.push({
          slug: row.organization.slug,
          key: row.key,
          organizationId: row.organizationId,
          provider,
          token: keys.token,
          privateKey: privateKeyObject(keys.privateKey),
          port: row.votifierPort,
        });
      } catch (err) {
        deps.logger.error(
          { err: (err as Error).message, provider: row.key, organization: row.organization.slug },
          'a Votifier provider is left out of routing: its keys are unreadable',
        );
      }
    }
    routes = next;
    loadedAt = Date.now();
    onLoad(next);
    return next;
  }
  const current = async (maxAgeMs: number) => {
    if (Date.now() - loadedAt <= maxAgeMs) return routes;
    loading ??= load().finally(() => (loading = null));
    return loading;
  };

  /** The first route `matches`; the table is read again once when none does (unless it was read just now). */
  const find: FindRoute = async (matches) => {
    const table = await current(ROUTES_TTL_MS);
    const found = await scan(table, matches);
    if (found) return found;
    const again = await current(ROUTES_MISS_REFRESH_MS);
    // The same table (read just now) is not tried twice.
    return again === table ? null : scan(again, matches);
  };
  /** The table as it is now (read again when older than its TTL). */
  const refresh = () => current(ROUTES_TTL_MS);
  return { find, refresh };
}

export async function startVotifierListener(deps: AppDeps, ingest: IngestService): Promise<VotifierListener> {
  const { config, logger } = deps;
  const perAddress = new Map<string, number>();
  const sockets = new Set<Socket>();
  /** Providers' own ports: port → its server and the provider (the route itself is looked up fresh). */
  const dedicated = new Map<number, { server: Server; slug: string; key: string }>();
  type Owner = Pick<Route, 'slug' | 'key' | 'organizationId' | 'provider'>;
  const routes = createVotifierRoutes(deps, (table) => void reconcileDedicated(table));

  /** `owner`: the provider whose own port this is (refusals there are its own); null on the shared port. */
  function serverFor(route: FindRoute, owner: Owner | null = null): Server {
    return createServer((socket) => {
      const ip = socket.remoteAddress ?? 'unknown';
      const open = (perAddress.get(ip) ?? 0) + 1;
      if (open > config.votifierMaxConnectionsPerIp) {
        socket.destroy();
        return;
      }
      perAddress.set(ip, open);
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        const left = (perAddress.get(ip) ?? 1) - 1;
        if (left > 0) perAddress.set(ip, left);
        else perAddress.delete(ip);
      });
      socket.on('error', () => {});
      socket.setTimeout(config.votifierTimeoutMs, () => socket.destroy());
      session(socket, ip, route, owner).catch((err: unknown) => {
        // Nothing a sender does may take the process down: the session is refused and the error logged.
        logger.error({ err }, 'a Votifier session failed');
        socket.destroy();
      });
    });
  }

  /** Listens on each provider's own port, and stops listening where a provider gave its port up. */
  let closed = false;
  async function reconcileDedicated(table: Route[]) {
    if (closed) return;
    const wanted = new Map(table.filter((r) => r.port !== null).map((r) => [r.port!, r]));
    for (const [port, entry] of dedicated) {
      const now = wanted.get(port);
      if (!now || now.slug !== entry.slug || now.key !== entry.key) {
        dedicated.delete(port);
        entry.server.close();
      }
    }
    for (const [port, route] of wanted) {
      if (dedicated.has(port)) continue;
      // Only this provider is tried here (v1: one decryption), read fresh from the table each time.
      const only: FindRoute = async (matches) => {
        const current = (await routes.refresh()).find((r) => r.port === port && r.slug === route.slug && r.key === route.key);
        return current && matches(current) ? current : null;
      };
      const server = serverFor(only, route);
      dedicated.set(port, { server, slug: route.slug, key: route.key });
      server.on('error', (err) => {
        logger.error({ err, port, provider: route.key }, "a Votifier provider's own port could not be opened");
        if (dedicated.get(port)?.server === server) dedicated.delete(port);
      });
      server.listen(port, config.host, () => logger.info({ port, provider: route.key }, "Votifier provider's own port ready"));
    }
  }

  async function session(socket: Socket, ip: string, route: FindRoute, owner: Owner | null) {
    const receivedAt = new Date();
    const started = performance.now();
    /** A session refused before ingest, told to the hook watchers (the request log, the operator's log). */
    const observeRefusal = (
      protocol: HookProtocol,
      errorCode: 'AUTH_FAILED' | 'VALIDATION_ERROR' | 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE',
      reason: string,
      body: Buffer,
    ) =>
      deps.hookObservers.tell(
        refusedBeforeIngest({
          receivedAt,
          durationMs: Math.round(performance.now() - started),
          orgSlug: owner?.slug ?? '',
          providerKey: owner?.key ?? '',
          organizationId: owner?.organizationId ?? null,
          provider: owner?.provider ?? null,
          clientIp: ip,
          method: 'POST',
          path: owner ? `/hooks/${owner.slug}/${owner.key}` : '',
          protocol,
          status: ERROR_STATUS[errorCode],
          errorCode,
          reason,
          body,
        }),
      );
    // An address past its refused-session budget is not even greeted (a refused v1 block cost a decryption per
    // provider): HOOK_FAILURE_LIMIT_PER_MINUTE per address, as for refused hook deliveries.
    // Its own budget namespace ('#' is never in an organization slug), per listening port: a list refused on one
    // provider's own port is not refused on the shared one.
    const failureKey = `${ip}|#votifier:${socket.localPort ?? 0}`;
    const budget = await peekPoint(deps.limits.hookFailures, failureKey);
    if (!budget.allowed) {
      observeRefusal(
        'votifier_v2',
        'RATE_LIMITED',
        `Too many refused Votifier sessions from this address; retry in ${budget.retryAfterSeconds} s`,
        Buffer.alloc(0),
      );
      return void socket.destroy();
    }
    const challenge = newChallenge();
    socket.write(`VOTIFIER 2 ${challenge}\n`);
    let buffer: Buffer = Buffer.alloc(0);
    let taken = false;
    const answer = (body: object) => socket.end(JSON.stringify(body));
    const refuse = async (protocol: 1 | 2, cause: string, error: string, body: Buffer) => {
      observeRefusal(
        protocol === 1 ? 'votifier_v1' : 'votifier_v2',
        cause === 'RuntimeException' || cause === 'CorruptedFrameException' ? 'AUTH_FAILED' : 'VALIDATION_ERROR',
        error,
        body,
      );
      await takePoint(deps.limits.hookFailures, failureKey).catch(() => {});
      if (protocol === 2) answer({ status: 'error', cause, error });
      else socket.destroy();
    };

    socket.on('data', (chunk: Buffer) => {
      if (taken) return;
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      if (buffer.length < 2) return;
      if (buffer.readUInt16BE(0) === PROTOCOL_2_MAGIC) {
        if (buffer.length < 4) return;
        const frame = buffer.readUInt16BE(2) + 4;
        if (frame > MAX_V2_FRAME) {
          taken = true;
          void refuse(2, 'TooLongFrameException', `Adjusted frame length exceeds ${MAX_V2_FRAME}: ${frame} - discarded`, buffer);
          return;
        }
        if (buffer.length < frame) return;
        taken = true;
        void v2(buffer.subarray(4, frame));
        return;
      }
      if (buffer.length < V1_BLOCK_BYTES) return;
      taken = true;
      void v1(buffer.subarray(0, V1_BLOCK_BYTES));
    });

    async function receive(protocol: 1 | 2, slug: string, key: string, body: Buffer) {
      try {
        await ingest.receive(
          { orgSlug: slug, providerKey: key, method: 'POST', headers: {}, query: {}, rawBody: body, votifier: { protocol, challenge } },
          { clientIp: ip },
        );
        if (protocol === 2) answer({ status: 'ok' });
        else socket.end();
      } catch (err) {
        const known = err instanceof AppError;
        if (!known) logger.error({ err }, 'a Votifier vote could not be received');
        if (protocol === 2)
          answer({
            status: 'error',
            cause: known ? err.code : 'InternalError',
            error: known ? err.message : 'The vote could not be recorded; nothing was stored',
          });
        else socket.destroy();
      }
    }

    /** The routing table could not be read (the database is down): nothing was stored; the list may retry. */
    const unavailable = (protocol: 1 | 2, err: unknown, body: Buffer) => {
      observeRefusal(
        protocol === 1 ? 'votifier_v1' : 'votifier_v2',
        'SERVICE_UNAVAILABLE',
        'The vote could not be recorded right now; nothing was stored',
        body,
      );
      logger.warn({ err: (err as Error).message }, 'Votifier routing table unreadable; session refused');
      if (protocol === 2) answer({ status: 'error', cause: 'SERVICE_UNAVAILABLE', error: 'The vote could not be recorded right now; nothing was stored' });
      else socket.destroy();
    };

    async function v2(frame: Buffer) {
      const message = readV2Message(frame.toString('utf8'));
      if (!message) return refuse(2, 'JSONException', 'The vote message is not {"payload": …, "signature": …}', frame);
      const signedBy = v2SignedBy(message);
      let found: Route | null;
      try {
        found = await route((r) => signedBy(r.token));
      } catch (err) {
        return unavailable(2, err, frame);
      }
      if (!found) return refuse(2, 'RuntimeException', 'Signature is not valid (invalid token?)', frame);
      return receive(2, found.slug, found.key, frame);
    }

    async function v1(block: Buffer) {
      let found: Route | null;
      try {
        found = await route((r) => openV1Block(block, r.privateKey) !== null);
      } catch (err) {
        return unavailable(1, err, block);
      }
      if (!found) return refuse(1, 'CorruptedFrameException', 'Could not decrypt data (is your key correct?)', block);
      return receive(1, found.slug, found.key, block);
    }
  }

  const server = serverFor(routes.find);
  server.listen(config.votifierPort, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('error', (err) => logger.error({ err }, 'Votifier listener error'));
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'Votifier listener ready');
  // Providers' own ports follow the table: read at start, then again each time it expires (within 6 s of a change).
  // A failed refresh keeps the table it had and is tried again within a second; said at debug level (the database
  // being down is told by everything else).
  const refresher = backgroundLoop({
    everyMs: config.votifierDedicatedPorts ? 1_000 : 0,
    atStart: false,
    pass: routes.refresh,
    failed: (err) => logger.debug({ err }, 'the Votifier routing table could not be read again; the one read before stays'),
  });
  refresher.start();
  if (config.votifierDedicatedPorts) await routes.refresh().catch((err: unknown) => logger.error({ err }, 'Votifier routing table unreadable'));
  return {
    port,
    close: async () => {
      closed = true;
      await refresher.stop();
      for (const socket of sockets) socket.destroy();
      await Promise.all([server, ...[...dedicated.values()].map((d) => d.server)].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      dedicated.clear();
    },
  };
}
