// The one outbound HTTP client (undici, pooled keep-alive connections) with the SSRF guard built into connect.
import { Agent, buildConnector, request } from 'undici';
import type { PrivateTargets } from '../config/private-targets.js';
import { BlockedTargetError, checkUrlShape, checkUrlTarget, guardedLookup, systemResolver, type Resolver } from './ssrf-guard.js';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** At most EXCERPT_BYTES of the body, as text. */
  body: string;
  durationMs: number;
}

export type OutboundFailureKind = 'blocked' | 'timeout' | 'network';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailureKind,
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
  }
}

export interface OutboundHttp {
  /** Validation for a URL being saved: null when acceptable, else the reason. */
  checkTarget(url: string): Promise<string | null>;
  post(url: string, options: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<OutboundResponse>;
  close(): Promise<void>;
  /** The DNS in use (the Votifier client's TCP connections check addresses with it too). */
  resolver: Resolver;
  /** The private targets the operator allows (ALLOW_PRIVATE_TARGETS). */
  privateTargets: PrivateTargets;
}

// Enough of a response to show in a delivery log or an error; receivers' bodies are not ours to keep.
const EXCERPT_BYTES = 4096;

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

/** undici's connector with the SSRF guard's lookup for the port each connection goes to (a rule may name a port). */
function guardedConnector(resolver: Resolver, policy: PrivateTargets): buildConnector.connector {
  const byPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    let connector = byPort.get(port);
    if (!connector) byPort.set(port, (connector = buildConnector({ lookup: guardedLookup(resolver, policy, port) as never })));
    return connector(options, callback);
  };
}

export function createOutboundHttp(options: { privateTargets: PrivateTargets; userAgent?: string; resolver?: Resolver }): OutboundHttp {
  const resolver = options.resolver ?? systemResolver;
  const policy = options.privateTargets;
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 64,
    connect: policy.all ? {} : guardedConnector(resolver, policy),
  });
  const userAgent = options.userAgent ?? 'VoteRelay/0.1 (+https://github.com/vote-relay)';
  return {
    checkTarget: (url) => checkUrlTarget(url, policy, resolver),
    async post(url, { headers, body, timeoutMs }) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const shape = checkUrlShape(url, policy);
      if (shape) throw new OutboundError('blocked', `URL ${shape}`, 0);
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { 'user-agent': userAgent, ...headers },
          body,
          dispatcher: agent,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await readExcerpt(response.body as never);
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        return { status: response.statusCode, headers: flat, body: text, durationMs: elapsed() };
      } catch (err) {
        const error = err as Error & { code?: string; cause?: Error };
        const cause = error.cause ?? error;
        if (cause instanceof BlockedTargetError || error instanceof BlockedTargetError) {
          throw new OutboundError('blocked', (cause as Error).message, elapsed());
        }
        if (error.name === 'TimeoutError' || error.name === 'AbortError' || /Timeout/i.test(error.code ?? '')) {
          throw new OutboundError('timeout', `No answer within ${timeoutMs} ms`, elapsed());
        }
        throw new OutboundError('network', cause.message || error.message, elapsed());
      }
    },
    close: () => agent.close(),
    resolver,
    privateTargets: policy,
  };
}
