// A hook body the body parser refuses before the hook route (and ingest) runs: over the limit (413), or not readable
// as its Content-Encoding says (400). This tells the hook watchers (deps.hookObservers: the operator's log, the
// request log, the metrics) about it as about any other refusal, under the organization and provider the path names
// where they exist, then leaves the answer to the app's error handler. Nothing of the body was read.
import type { NextFunction, Request, Response } from 'express';
import { refusedBeforeIngest, type HookObservers, type ObservedProvider } from '../modules/hook-requests/observation.js';
import type { HookTarget } from '../domain/votes.js';
import { bodyParserError } from './error-response.js';
import { hookRequest } from './hook-request.js';

/** The organization and provider a hook path names (VoteStore.findTarget), or null. */
export type FindHookTarget = (slug: string, key: string) => Promise<HookTarget | null>;

export function observeUnreadableHooks(observers: HookObservers, findTarget: FindHookTarget) {
  return (err: unknown, req: Request, _res: Response, next: NextFunction) => {
    const refusal = bodyParserError(err);
    if (!refusal) return next(err);
    // Mounted at /hooks: req.path is /<org>/<provider>[/<secret>] (percent-decoded as Express decodes parameters).
    const [orgSlug = '', providerKey = ''] = req.path
      .split('/')
      .filter(Boolean)
      .map((s) => safeDecode(s).toLowerCase());
    const { method, headers, query, path } = hookRequest(req);
    const details = (refusal.details as { field: string; message: string }[] | undefined) ?? [];
    const reason = details.length > 0 ? details.map((d) => `${d.field}: ${d.message}`).join('; ') : refusal.message;
    const status = refusal.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
    const tell = (target: HookTarget | null) => {
      let provider: ObservedProvider | null = null;
      if (target?.provider) {
        const { id, key, authMethod, authField, authTimestampField, payloadSource } = target.provider;
        provider = { id, key, authMethod, authField, authTimestampField, payloadSource };
      }
      observers.tell(
        refusedBeforeIngest({
          receivedAt: new Date(),
          durationMs: 0,
          orgSlug,
          providerKey,
          organizationId: target?.org.id ?? null,
          provider,
          clientIp: req.ip ?? 'unknown',
          method,
          path: path!,
          protocol: 'http',
          status,
          errorCode: refusal.code,
          reason,
          headers,
          query,
        }),
      );
    };
    findTarget(orgSlug, providerKey).then(
      (target) => {
        tell(target);
        next(err);
      },
      () => {
        tell(null);
        next(err);
      },
    );
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
