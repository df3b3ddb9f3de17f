// Fan-out of `subscription { voteReceived }` over Server-Sent Events on /graphql (yoga's SSE, which is also the
// graphql-sse protocol's distinct-connections mode), built for many subscribers per organization.
//
// Through yoga every subscriber had its own pipeline per event: pub/sub repeater, execution, serialisation, web
// stream, socket write: ~100 µs each, so 1,000 dashboards × 500 votes/s needed 50 s of CPU per second and the
// hooks starved (bench/live). Here:
// - subscribers with the same document, variables, organization, key scope and plan form a group; each event is
//   executed and serialised once per group (one `next` frame), in event order;
// - frames are written per group in coalesced flushes: every FLUSH_MS (scaled with the number of subscribers,
//   5–50 ms), each subscriber gets one socket write with the same bytes;
// - a subscriber whose socket holds more than MAX_BEHIND_BYTES unsent is cut off with a RATE_LIMITED error event
//   (bounded memory; it may reconnect);
// - one source per organization on the feed (local or Redis), pings every 12 s, and revoked keys end their streams
//   (revocation events, plus one batched re-check of every connected key every 15 s).
// Requests this path does not take (anything but a valid, authorised, single-root-field voteReceived subscription,
// and graphql-sse's single-connection mode on /graphql/stream) go to yoga unchanged, errors included.
import {
  execute,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Request, Response } from 'express';
import type { AppDeps } from '../app-deps.js';
import type { GraphQLContext } from '../graphql/context.js';
import { queryLimitsRule } from '../graphql/query-limits.js';
import { maskUnexpected } from '../graphql/yoga.js';
import { checkAccess, type Viewer } from '../auth/access.js';
import { createLoaders } from '../graphql/loaders.js';
import type { VoteEvent } from './vote-events.js';

const PING_MS = 12_000;
const KEY_RECHECK_MS = 15_000;
const MAX_BEHIND_BYTES = 1024 * 1024;
const DOCUMENT_CACHE = 200;

interface Subscriber {
  res: Response;
  viewer: Viewer;
  group: Group;
}

interface Group {
  key: string;
  document: DocumentNode;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  context: GraphQLContext;
  /** The subscription's `provider` argument: only that provider's votes. */
  provider: string | null;
  members: Set<Subscriber>;
  pending: string[];
}

interface OrgSource {
  groups: Map<string, Group>;
  stop: () => void;
  /** Frames are emitted in event order although executions run concurrently. */
  chain: Promise<void>;
}

export interface LiveHub {
  /** Takes the request if it is a voteReceived SSE subscription this path serves; false hands it to yoga. */
  tryHandle(req: Request, res: Response, context: GraphQLContext): boolean;
  subscriberCount(): number;
  close(): void;
}

function acceptsEventStream(req: Request): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/** query, variables and operationName of a GET or POST GraphQL request, or null when malformed. */
function requestParams(req: Request): { query: string; variables: Record<string, unknown> | undefined; operationName: string | undefined } | null {
  const source = req.method === 'POST' ? req.body : req.method === 'GET' ? req.query : null;
  if (!source || typeof source !== 'object' || typeof source.query !== 'string') return null;
  let variables = source.variables;
  if (typeof variables === 'string') {
    try {
      variables = JSON.parse(variables);
    } catch {
      return null;
    }
  }
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  const operationName = source.operationName;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  return { query: source.query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

function isVoteReceivedOnly(operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'subscription') return false;
  const selections = operation.selectionSet.selections;
  return selections.length === 1 && selections[0].kind === Kind.FIELD && selections[0].name.value === 'voteReceived' && !selections[0].directives?.length;
}

export function createLiveHub(deps: AppDeps, schema: GraphQLSchema): LiveHub {
  const sources = new Map<string, OrgSource>();
  const subscribers = new Set<Subscriber>();
  const documents = new Map<string, DocumentNode | null>();
  const rules = [...specifiedRules, queryLimitsRule(), ...(deps.config.graphqlIntrospection ? [] : [NoSchemaIntrospectionCustomRule])];
  let flushTimer: NodeJS.Timeout | null = null;

  /** Parsed and validated once per distinct query text (null: not for this path). */
  function documentFor(query: string): DocumentNode | null {
    const cached = documents.get(query);
    if (cached !== undefined) return cached;
    let document: DocumentNode | null = null;
    try {
      const parsed = parse(query, { maxTokens: 2_000 });
      if (validate(schema, parsed, rules).length === 0) document = parsed;
    } catch {
      document = null;
    }
    if (documents.size >= DOCUMENT_CACHE) documents.delete(documents.keys().next().value!);
    documents.set(query, document);
    return document;
  }

  function send(subscriber: Subscriber, chunk: string | Buffer) {
    const { res } = subscriber;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BEHIND_BYTES) {
      const error = { errors: [{ message: 'This subscriber fell too far behind; reconnect to resume', extensions: { code: 'RATE_LIMITED' } }] };
      res.end(`event: next\ndata: ${JSON.stringify(error)}\n\nevent: complete\ndata:\n\n`);
      remove(subscriber);
      return;
    }
    res.write(chunk);
  }

  function flush() {
    flushTimer = null;
    for (const source of sources.values()) {
      for (const group of source.groups.values()) {
        if (group.pending.length === 0) continue;
        const bytes = Buffer.from(group.pending.join(''));
        group.pending.length = 0;
        for (const subscriber of group.members) send(subscriber, bytes);
      }
    }
  }

  function scheduleFlush() {
    if (flushTimer) return;
    // More subscribers → fewer, larger writes (one write per subscriber per flush); a few → nearly immediate.
    const delay = Math.min(50, Math.max(5, Math.round(subscribers.size / 20)));
    flushTimer = setTimeout(flush, delay);
  }

  function frameOf(group: Group, event: VoteEvent): Promise<string> | string {
    const done = (result: Awaited<ReturnType<typeof execute>>) => {
      const errors = result.errors?.map((error) => {
        const masked = maskUnexpected(error, deps) as GraphQLError;
        const { http: _http, ...extensions } = (masked.extensions ?? {}) as Record<string, unknown>;
        return { message: masked.message, ...(masked.path ? { path: masked.path } : {}), ...(Object.keys(extensions).length ? { extensions } : {}) };
      });
      return `event: next\ndata: ${JSON.stringify(errors ? { ...result, errors } : result)}\n\n`;
    };
    // A fresh context per event: request-scoped loaders must not cache across a stream's lifetime.
    const contextValue: GraphQLContext = { ...group.context, loaders: createLoaders(group.context.services) };
    const result = execute({ schema, document: group.document, rootValue: event, contextValue, variableValues: group.variables, operationName: group.operationName });
    return result instanceof Promise ? result.then(done) : done(result);
  }

  function onEvent(source: OrgSource, event: VoteEvent) {
    const groups = [...source.groups.values()].filter((group) => group.provider === null || group.provider === event.providerKey);
    if (groups.length === 0) return;
    const frames = groups.map((group) => Promise.resolve(frameOf(group, event)).catch(() => null));
    source.chain = source.chain.then(async () => {
      const ready = await Promise.all(frames);
      groups.forEach((group, i) => {
        if (ready[i] !== null && group.members.size > 0) group.pending.push(ready[i]!);
      });
      scheduleFlush();
    });
  }

  function end(subscriber: Subscriber) {
    if (!subscriber.res.writableEnded) subscriber.res.end('event: complete\ndata:\n\n');
    remove(subscriber);
  }

  function sourceFor(organizationId: string): OrgSource {
    let source = sources.get(organizationId);
    if (source) return source;
    const votes = deps.feed.pubsub.subscribe('voteReceived', organizationId)[Symbol.asyncIterator]();
    const revocations = deps.feed.pubsub.subscribe('apiKeyRevoked', organizationId)[Symbol.asyncIterator]();
    const created: OrgSource = {
      groups: new Map(),
      chain: Promise.resolve(),
      stop: () => {
        void votes.return?.();
        void revocations.return?.();
      },
    };
    sources.set(organizationId, created);
    void (async () => {
      for (;;) {
        const next = await votes.next();
        if (next.done) return;
        onEvent(created, next.value);
      }
    })();
    void (async () => {
      for (;;) {
        const next = await revocations.next();
        if (next.done) return;
        for (const subscriber of subscribers) if (subscriber.viewer.apiKeyId === next.value.apiKeyId) end(subscriber);
      }
    })();
    source = created;
    return source;
  }

  function remove(subscriber: Subscriber) {
    if (!subscribers.delete(subscriber)) return;
    const { group, viewer } = subscriber;
    group.members.delete(subscriber);
    const source = sources.get(viewer.organizationId);
    if (!source) return;
    if (group.members.size === 0) source.groups.delete(group.key);
    if (source.groups.size === 0) {
      source.stop();
      sources.delete(viewer.organizationId);
    }
  }

  const ping = setInterval(() => {
    for (const subscriber of subscribers) send(subscriber, ':\n\n');
  }, PING_MS);
  ping.unref();

  const recheck = setInterval(async () => {
    if (subscribers.size === 0) return;
    const ids = [...new Set([...subscribers].map((s) => s.viewer.apiKeyId))];
    const live = await deps.db.prisma.apiKey
      .findMany({ where: { id: { in: ids }, revokedAt: null }, select: { id: true } })
      .then((keys) => new Set(keys.map((k) => k.id)))
      .catch(() => null);
    if (!live) return;
    for (const subscriber of subscribers) if (!live.has(subscriber.viewer.apiKeyId)) end(subscriber);
  }, KEY_RECHECK_MS);
  recheck.unref();

  return {
    tryHandle(req, res, context) {
      if ((req.method !== 'POST' && req.method !== 'GET') || !acceptsEventStream(req)) return false;
      const params = requestParams(req);
      if (!params) return false;
      let viewer: Viewer | null;
      try {
        viewer = checkAccess(context.auth, { scope: 'read' });
      } catch {
        return false; // yoga answers with the documented error
      }
      if (!viewer) return false;
      const document = documentFor(params.query);
      if (!document) return false;
      const operation = getOperationAST(document, params.operationName);
      if (!operation || !isVoteReceivedOnly(operation)) return false;
      // Variables must coerce (yoga reports them otherwise); the provider argument filters the stream.
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], params.variables ?? {});
      if (coerced.errors) return false;
      const field = schema.getSubscriptionType()!.getFields().voteReceived;
      const provider = getArgumentValues(field, operation.selectionSet.selections[0] as never, coerced.coerced).provider;
      const key = JSON.stringify([params.query, params.operationName ?? null, params.variables ?? null, viewer.organizationId, viewer.scope, viewer.plan]);

      res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive', 'Cache-Control': 'no-cache', 'Content-Encoding': 'none' });
      res.flushHeaders();
      res.write(':\n\n');
      const source = sourceFor(viewer.organizationId);
      let group = source.groups.get(key);
      if (!group) {
        group = {
          key, document, operationName: params.operationName, variables: params.variables, context,
          provider: typeof provider === 'string' ? provider : null, members: new Set(), pending: [],
        };
        source.groups.set(key, group);
      }
      const subscriber: Subscriber = { res, viewer, group };
      group.members.add(subscriber);
      subscribers.add(subscriber);
      res.on('close', () => remove(subscriber));
      return true;
    },
    subscriberCount: () => subscribers.size,
    close() {
      clearInterval(ping);
      clearInterval(recheck);
      if (flushTimer) clearTimeout(flushTimer);
      for (const subscriber of [...subscribers]) end(subscriber);
    },
  };
}
