// Fan-out of `subscription { voteReceived }` on /graphql, built for many subscribers per organization: over
// Server-Sent Events (yoga's SSE, which is also the graphql-sse protocol's distinct-connections mode) and over
// WebSocket (graphql-ws, live-server/graphql-ws.ts, which frames what this hub executes).
//
// Through yoga every subscriber had its own pipeline per event: pub/sub repeater, execution, serialisation, web
// stream, socket write: ~100 µs each, so 1,000 dashboards × 500 votes/s needed 50 s of CPU per second and the
// hooks starved (bench/live). Here:
// - subscribers with the same document, variables, organization, key scope and plan form a group; each event is
//   executed and serialised once per group (one `next` frame), in event order;
// - frames are written per group in coalesced flushes: every FLUSH_MS (scaled with the number of subscribers,
//   5–50 ms), each subscriber gets one socket write with the same bytes;
// - a subscriber whose socket holds more than MAX_BEHIND_BYTES unsent is cut off with a RATE_LIMITED error
//   (bounded memory; it may reconnect), on either transport;
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
  print,
  specifiedRules,
  validate,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Request, Response } from 'express';
import type { ExecutionResult } from 'graphql';
import { Repeater } from '@repeaterjs/repeater';
import type { AppDeps } from '../app/deps.js';
import type { GraphQLContext } from '../graphql/context.js';
import { queryLimitsRule } from '../graphql/query-limits.js';
import { maskUnexpected } from '../graphql/yoga.js';
import { checkAccess, type Viewer } from '../auth/access.js';
import { createLoaders } from '../graphql/loaders.js';
import type { VoteEvent } from '../live/vote-events.js';

const PING_MS = 12_000;
const KEY_RECHECK_MS = 15_000;
const MAX_BEHIND_BYTES = 1024 * 1024;
const DOCUMENT_CACHE = 200;

/** A graphql-ws subscription: results are handed to graphql-ws, which frames and sends them on `socket`. */
interface WsSink {
  push(result: ExecutionResult): void;
  stop(): void;
  socket: { bufferedAmount: number; close(code: number, reason: string): void };
}

interface Subscriber {
  viewer: Viewer;
  group: Group;
  /** Server-Sent Events: frames are written to the response in coalesced flushes. */
  res?: Response;
  ws?: WsSink;
}

interface Frame {
  /** The SSE frame (`event: next`), the same bytes for every SSE subscriber of the group. */
  sse: string;
  result: ExecutionResult;
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
  pending: Frame[];
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
  /**
   * A graphql-ws subscription this hub serves (a valid, authorised voteReceived), as the results graphql-ws sends;
   * null hands it to the ordinary subscribe.
   */
  subscribe(
    args: { document: DocumentNode; operationName?: string | null; variableValues?: Record<string, unknown> | null; contextValue: GraphQLContext },
    socket: WsSink['socket'],
  ): AsyncIterable<ExecutionResult> | null;
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

  const FELL_BEHIND: ExecutionResult = {
    errors: [new GraphQLError('This subscriber fell too far behind; reconnect to resume', { extensions: { code: 'RATE_LIMITED' } })],
  };

  function send(subscriber: Subscriber, chunk: string | Buffer) {
    const { res } = subscriber;
    if (!res || res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BEHIND_BYTES) {
      res.end(`event: next\ndata: ${JSON.stringify(FELL_BEHIND)}\n\nevent: complete\ndata:\n\n`);
      remove(subscriber);
      return;
    }
    res.write(chunk);
  }

  function sendWs(subscriber: Subscriber, frames: Frame[]) {
    const ws = subscriber.ws!;
    if (ws.socket.bufferedAmount > MAX_BEHIND_BYTES) {
      ws.push(FELL_BEHIND);
      ws.stop();
      remove(subscriber);
      return;
    }
    for (const frame of frames) ws.push(frame.result);
  }

  function flush() {
    flushTimer = null;
    for (const source of sources.values()) {
      for (const group of source.groups.values()) {
        if (group.pending.length === 0) continue;
        const frames = group.pending.splice(0);
        let bytes: Buffer | null = null;
        for (const subscriber of group.members) {
          if (subscriber.ws) sendWs(subscriber, frames);
          else send(subscriber, (bytes ??= Buffer.from(frames.map((f) => f.sse).join(''))));
        }
      }
    }
  }

  function scheduleFlush() {
    if (flushTimer) return;
    // More subscribers → fewer, larger writes (one write per subscriber per flush); a few → nearly immediate.
    const delay = Math.min(50, Math.max(5, Math.round(subscribers.size / 20)));
    flushTimer = setTimeout(flush, delay);
  }

  function frameOf(group: Group, event: VoteEvent): Promise<Frame> | Frame {
    const done = (executed: Awaited<ReturnType<typeof execute>>): Frame => {
      const errors = executed.errors?.map((error) => maskUnexpected(error, deps) as GraphQLError);
      const result = errors ? { ...executed, errors } : executed;
      return { sse: `event: next\ndata: ${JSON.stringify(result)}\n\n`, result };
    };
    // A fresh context per event: request-scoped loaders must not cache across a stream's lifetime.
    const contextValue: GraphQLContext = { ...group.context, loaders: createLoaders(group.context.services) };
    const result = execute({
      schema,
      document: group.document,
      rootValue: event,
      contextValue,
      variableValues: group.variables,
      operationName: group.operationName,
    });
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

  /** Ends a subscriber's stream; `revoked`: its key was revoked, so a WebSocket (authenticated once) closes too. */
  function end(subscriber: Subscriber, revoked = false) {
    if (subscriber.res && !subscriber.res.writableEnded) subscriber.res.end('event: complete\ndata:\n\n');
    if (subscriber.ws) {
      subscriber.ws.stop();
      if (revoked) subscriber.ws.socket.close(4403, 'Forbidden: the API key was revoked');
    }
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
        for (const subscriber of subscribers) if (subscriber.viewer.apiKeyId === next.value.apiKeyId) end(subscriber, true);
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
    for (const subscriber of subscribers) if (subscriber.res) send(subscriber, ':\n\n'); // graphql-ws pings its own sockets
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
    for (const subscriber of subscribers) if (!live.has(subscriber.viewer.apiKeyId)) end(subscriber, true);
  }, KEY_RECHECK_MS);
  recheck.unref();

  /** Adds a subscriber to its group (same document, variables, organization, scope and plan), creating it as needed. */
  function join(
    viewer: Viewer,
    request: {
      query: string;
      document: DocumentNode;
      operationName: string | undefined;
      variables: Record<string, unknown> | undefined;
      context: GraphQLContext;
      provider: unknown;
    },
    sink: { res: Response } | { ws: WsSink },
  ): Subscriber {
    const key = JSON.stringify([request.query, request.operationName ?? null, request.variables ?? null, viewer.organizationId, viewer.scope, viewer.plan]);
    const source = sourceFor(viewer.organizationId);
    let group = source.groups.get(key);
    if (!group) {
      group = {
        key,
        document: request.document,
        operationName: request.operationName,
        variables: request.variables,
        context: request.context,
        provider: typeof request.provider === 'string' ? request.provider : null,
        members: new Set(),
        pending: [],
      };
      source.groups.set(key, group);
    }
    const subscriber: Subscriber = { viewer, group, ...sink };
    group.members.add(subscriber);
    subscribers.add(subscriber);
    return subscriber;
  }

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

      res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive', 'Cache-Control': 'no-cache', 'Content-Encoding': 'none' });
      res.flushHeaders();
      res.write(':\n\n');
      const subscriber = join(
        viewer,
        { query: params.query, document, operationName: params.operationName, variables: params.variables, context, provider },
        { res },
      );
      res.on('close', () => remove(subscriber));
      return true;
    },
    subscribe(args, socket) {
      let viewer: Viewer | null;
      try {
        viewer = checkAccess(args.contextValue.auth, { scope: 'read' });
      } catch {
        return null; // the ordinary subscribe answers with the documented error
      }
      const operation = viewer ? getOperationAST(args.document, args.operationName) : null;
      if (!viewer || !operation || !isVoteReceivedOnly(operation)) return null;
      const variables = args.variableValues ?? undefined;
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
      if (coerced.errors) return null;
      const field = schema.getSubscriptionType()!.getFields().voteReceived;
      const provider = getArgumentValues(field, operation.selectionSet.selections[0] as never, coerced.coerced).provider;
      const member = viewer;
      return new Repeater<ExecutionResult>(async (push, stop) => {
        const subscriber = join(
          member,
          {
            query: print(args.document),
            document: args.document,
            operationName: args.operationName ?? undefined,
            variables,
            context: args.contextValue,
            provider,
          },
          { ws: { push: (result) => void push(result), stop: () => stop(), socket } },
        );
        await stop;
        remove(subscriber);
      });
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
