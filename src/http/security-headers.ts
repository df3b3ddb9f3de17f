// Security headers (helmet) on every answer: a Content-Security-Policy per kind of page — the dashboard, GraphiQL,
// the API reference page — and a deny-everything one for API answers, plus nosniff, no-referrer and no framing.
// The dashboard keeps a full-scope API key in sessionStorage: these headers are what keeps a script or frame from
// another origin away from it (README "Dashboard", SECURITY.md).
import helmet from 'helmet';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GRAPHIQL_ASSETS_PATH } from '../graphql/graphiql.js';

type Directives = Record<string, string[]>;

/** What every page shares: nothing from another origin, nothing not named here, no <base>, never inside a frame. */
const PAGE: Directives = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"], // fetch, graphql-sse's EventSource/fetch streams and graphql-ws (same-origin ws: counts as 'self')
  manifestSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const POLICIES = {
  /** The dashboard (web/dist): Vite's build is script and stylesheet files only, and React sets styles through the CSSOM. */
  dashboard: PAGE,
  /**
   * GraphiQL (src/graphql/graphiql.ts): its scripts and Monaco's workers are files of this service. Monaco and
   * GraphiQL add <style> elements and style attributes at run time, so styles (never scripts) may be inline; its
   * stylesheet embeds its icon font and a few images as data: URLs.
   */
  graphiql: { ...PAGE, workerSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], fontSrc: ["'self'", 'data:'], imgSrc: ["'self'", 'data:'] },
  /** Swagger UI (src/http/api-reference.ts) sets inline styles and its stylesheet embeds data: images. */
  reference: { ...PAGE, styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'], formAction: ["'none'"] },
  /** JSON, CSV and event streams are never documents: should a browser open one, it may load and run nothing. */
  api: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
} satisfies Record<string, Directives>;

type PolicyName = keyof typeof POLICIES;

const API_PREFIXES = ['/v1', '/graphql', '/hooks', '/healthz', '/readyz', '/metrics'];
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Which policy an answer gets, from its path alone (headers are set before any handler runs). */
export function policyFor(method: string, path: string): PolicyName {
  if (under(path, '/v1/reference')) return 'reference';
  // GET /graphql is GraphiQL for a browser (a GET query's JSON answer may carry the page policy: it is stricter than none).
  if ((path === '/graphql' && method === 'GET') || under(path, GRAPHIQL_ASSETS_PATH)) return 'graphiql';
  if (API_PREFIXES.some((prefix) => under(path, prefix))) return 'api';
  return 'dashboard';
}

/**
 * Headers that matter only to a document a browser renders (process isolation, legacy IE and Flash switches): an
 * API answer (JSON, CSV, an event stream) is never one, and every hook answer would carry them. API answers keep
 * Cross-Origin-Resource-Policy: another site cannot pull them into its page.
 */
const DOCUMENT_ONLY = {
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

function withPolicy(name: PolicyName, directives: Directives): RequestHandler {
  return helmet({
    ...(name === 'api' ? DOCUMENT_ONLY : {}),
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' }, // frame-ancestors for browsers that predate it
    // HSTS belongs to whoever terminates TLS (the reverse proxy): sent from here over plain HTTP it means nothing,
    // and behind a proxy it would pin every subdomain of the operator's domain to HTTPS for a year.
    strictTransportSecurity: false,
  }) as RequestHandler;
}

/**
 * The headers helmet sets for one policy, read once: helmet's answer is the same for every request, and running its
 * dozen middlewares per request cost about 5% of a busy hook's CPU (bench/ingest.ts profile, BENCHMARKS.md).
 */
function headersOf(handler: RequestHandler): { set: [string, string | string[]][]; removed: string[] } {
  const set: [string, string | string[]][] = [];
  const removed: string[] = [];
  const res = {
    setHeader: (name: string, value: string | string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let done = false;
  handler({} as Request, res as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return { set, removed };
}

/** One middleware for the whole app, mounted first: every answer, errors included, carries the headers. */
export function securityHeaders(): RequestHandler {
  const headers = Object.fromEntries(
    Object.entries(POLICIES).map(([name, directives]) => [name, headersOf(withPolicy(name as PolicyName, directives))]),
  ) as Record<PolicyName, ReturnType<typeof headersOf>>;
  return (req: Request, res: Response, next: NextFunction) => {
    const { set, removed } = headers[policyFor(req.method, req.path)];
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
