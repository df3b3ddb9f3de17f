// The HTTP side of the metrics: every request counted by its route pattern (never its values), GET /metrics in
// Prometheus text format (behind METRICS_TOKEN when set), and the scrape-time sources read from the database and
// the live hub.
import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../app/deps.js';
import { OPEN_JOB_STATUSES } from '../domain/jobs.js';
import type { LiveHub } from '../live-server/sse-hub.js';
import { secretsEqual } from '../crypto/secrets-equal.js';
import type { Metrics, MetricsRecorder, MetricsSources } from './metrics.js';

const MOUNTS = ['/v1', '/hooks', '/graphql'];
const OWN_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/graphql/stream']);

/** The route pattern a request matched (`/v1/votes/:id`, `/hooks/:org/:provider`), never a slug, key or name. */
export function routeLabel(req: Request): string {
  const path = req.originalUrl.split('?')[0];
  const mount = MOUNTS.find((m) => path === m || path.startsWith(`${m}/`)) ?? '';
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${mount}${pattern}`;
  if (OWN_PATHS.has(path)) return path;
  if (mount === '/graphql') return '/graphql';
  if (mount) return `${mount}/unmatched`;
  return req.method === 'GET' ? 'dashboard' : 'unmatched';
}

export function countRequests(metrics: MetricsRecorder) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('close', () => metrics.httpRequest(req.method, routeLabel(req), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  };
}

export function metricsEndpoint(metrics: Metrics, token: string | null) {
  return async (req: Request, res: Response) => {
    if (token) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!secretsEqual(given, token)) {
        res.status(401).set('www-authenticate', 'Bearer').type('text/plain').send('metrics require Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
    }
    let text: string;
    try {
      text = await metrics.text();
    } catch (err) {
      res
        .status(503)
        .type('text/plain')
        .send(`metrics are unavailable right now: ${(err as Error).message}\n`);
      return;
    }
    res.type(metrics.registry.contentType).send(text);
  };
}

/** Open delivery jobs by kind and status, and the oldest due one's age, from the job table's (status, runAt) index. */
export function metricsSources(deps: AppDeps, liveHub: LiveHub): MetricsSources {
  const { prisma } = deps.db;
  return {
    async openJobs() {
      const groups = await prisma.deliveryJob.groupBy({
        by: ['kind', 'status'],
        where: { status: { in: [...OPEN_JOB_STATUSES] } },
        _count: { _all: true },
      });
      return groups.map((g) => ({ kind: g.kind, status: g.status, count: g._count._all }));
    },
    async uncertainJobs() {
      const groups = await prisma.deliveryJob.groupBy({ by: ['kind'], where: { status: 'uncertain' }, _count: { _all: true } });
      return groups.map((g) => ({ kind: g.kind, count: g._count._all }));
    },
    async oldestDueJobAgeSeconds() {
      const now = deps.clock.now();
      const oldest = await prisma.deliveryJob.findFirst({
        where: { status: { in: ['pending', 'retrying'] }, runAt: { lte: now }, kind: { not: 'pull' } },
        orderBy: { runAt: 'asc' },
        select: { runAt: true },
      });
      return oldest ? Math.max(0, (now.getTime() - oldest.runAt.getTime()) / 1000) : 0;
    },
    liveSubscribers: () => liveHub.subscriberCount(),
  };
}
