// A REST route is data: a GraphQL document, where its variables come from, and how its data is shaped.
import type { Request, Response } from 'express';
import type { GraphQLContext } from '../src/graphql/context.js';
import type { ErrorCode } from '../src/base/errors.js';

export interface RestRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  /** One GraphQL operation; aliases give the REST (snake_case) field names. */
  document: string;
  /**
   * Raw values per GraphQL variable; the router coerces each by its declared type (snake_case body keys map to
   * camelCase input fields). Read the body whole (`input: req.body`) or by property (`req.body?.since`): the router
   * learns from that which keys the body may hold and refuses any other (rest-compat/body-fields.ts).
   */
  variables?: (req: Request) => Record<string, unknown>;
  /** What this route adds to the GraphQL context (the hook route: the request itself, by reference). */
  context?: (req: Request) => Partial<GraphQLContext>;
  /** HTTP status on success (default 200). */
  status?: number;
  /** Shapes the response's `data` from the operation's result. */
  // biome-ignore lint/suspicious/noExplicitAny: each route reads its own document's result, whose shape the document fixes
  data: (result: any) => unknown;
  /** Interface responses shown without `meta` (GET /v1/templates, GET /v1/providers/:key). */
  omitMeta?: boolean;
  /** Extra `meta` fields next to request_id (the vote list's pagination). */
  // biome-ignore lint/suspicious/noExplicitAny: as for data
  meta?: (result: any) => Record<string, unknown>;
  /** A non-JSON body (CSV export): the document has checked access and arguments; this writes the response. */
  // biome-ignore lint/suspicious/noExplicitAny: as for data
  stream?: (req: Request, res: Response, result: any, context: GraphQLContext) => Promise<void>;

  // For the OpenAPI document only (rest-compat/openapi.ts reads everything else from the route and the schema).
  /** A one-line title (default: the GraphQL field's description, or its name). */
  summary?: string;
  /** What `stream` writes (default application/octet-stream). */
  streamType?: string;
  /** The body is a JSON array: it stands for this one body field (POST /v1/plugin/players takes the players as the body). */
  arrayBody?: string;
  /** The request itself is the input (the hook routes): a POST's body as bytes of any type, a GET's query string. */
  rawBody?: boolean;
  /** Who may call it, where the field's access rule does not tell (a public field that checks its own secret). */
  access?: string;
  /** Codes a service may answer beyond those the field's access rule and the route's inputs imply. */
  errors?: ErrorCode[];
}

/**
 * Leaves out the named fields of an answer when they are null: fields only some resources have, so that the others'
 * answers keep their documented shape.
 */
export function onlyIfSet(fields: readonly string[]) {
  return <T extends Record<string, unknown> | null>(data: T): T =>
    data && (Object.fromEntries(Object.entries(data).filter(([k, v]) => !(v === null && fields.includes(k)))) as T);
}
