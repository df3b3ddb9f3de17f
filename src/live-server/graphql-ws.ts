// GraphQL over WebSocket (the graphql-ws protocol, Apollo Client's and urql's default subscription transport) on
// /graphql, beside SSE. Same API key (connection_init's `Authorization`, or the upgrade request's header), the
// same yoga pipeline (limits, masking, validation rules), and voteReceived through the same fan-out hub as SSE
// (filters, revocation, buffer limit, Redis across instances). Queries and mutations over the socket work too.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { ExecutionArgs } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Request } from 'express';
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import type { AuthState } from '../auth/access.js';
import type { GraphQLContext } from '../graphql/context.js';
import { takePoint } from '../auth/rate-limits.js';
import type { LiveHub } from './sse-hub.js';

/** The longest message a client may send (a subscribe with its document and variables), as for /graphql bodies. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Protocol pings keep idle connections open through proxies, as SSE's comments do. */
const KEEP_ALIVE_MS = 12_000;

type Extra = {
  auth: AuthState;
  clientIp: string;
};

interface Pipeline {
  // yoga's envelop functions (results, or async iterables of results)
  // biome-ignore lint/suspicious/noExplicitAny: envelop types these as its own result union, which graphql-ws does not accept
  execute: (args: ExecutionArgs) => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  subscribe: (args: ExecutionArgs) => any;
  socket: WebSocket;
}

export interface GraphQLWebSocket {
  /** Takes an HTTP upgrade for /graphql; false when the request is not one. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

const headerOf = (params: Record<string, unknown> | undefined, req: IncomingMessage): string | undefined => {
  const fromParams = params?.Authorization ?? params?.authorization;
  return typeof fromParams === 'string' ? fromParams : req.headers.authorization;
};

export function createGraphQLWebSocket(
  deps: AppDeps,
  services: Services,
  yoga: YogaServerInstance<{ req: Request }, GraphQLContext>,
  hub: LiveHub,
  trustProxy: (req: IncomingMessage) => string,
): GraphQLWebSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  const server = useServer<Record<string, unknown>, Extra>(
    {
      // A key is needed to open the socket: no key, or a wrong one, closes it with 4403 Forbidden (graphql-ws's code).
      async onConnect(ctx) {
        const auth = await services.apiKeys.authenticate(headerOf(ctx.connectionParams, ctx.extra.request));
        if (auth.kind !== 'viewer') return false;
        const outcome = await takePoint(deps.limits.api, auth.viewer.organizationId);
        if (!outcome.allowed) return false;
        ctx.extra.auth = auth;
        ctx.extra.clientIp = trustProxy(ctx.extra.request);
        return true;
      },
      async onSubscribe(ctx, _id, payload) {
        const req = { auth: ctx.extra.auth, requestId: `ws_${randomUUID()}`, ip: ctx.extra.clientIp } as unknown as Request;
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ req, params: payload });
        let document;
        try {
          document = parse(payload.query);
        } catch (err) {
          return [err as never];
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        const args: ExecutionArgs = {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          // yoga's pipeline for this operation, and the connection's socket (the hub watches what it has unsent).
          rootValue: { execute, subscribe, socket: ctx.extra.socket } satisfies Pipeline,
        };
        return args;
      },
      execute: (args) => (args.rootValue as Pipeline).execute(args),
      subscribe: (args) => {
        const pipeline = args.rootValue as Pipeline;
        const served = hub.subscribe(
          {
            document: args.document,
            operationName: args.operationName,
            variableValues: args.variableValues,
            contextValue: args.contextValue as GraphQLContext,
          },
          pipeline.socket,
        );
        return served ?? pipeline.subscribe(args);
      },
    },
    wss,
    KEEP_ALIVE_MS,
  );

  return {
    handleUpgrade(req, socket, head) {
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/graphql') return false;
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      return true;
    },
    async close() {
      await server.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
