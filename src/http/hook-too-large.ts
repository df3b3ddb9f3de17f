// A hook body over the limit is refused by the body parser before the hook route (and ingest) runs: this tells the
// hook watchers (deps.hookObservers: the operator's log, the request log) about it as about any other refusal,
// then leaves the answer (413 PAYLOAD_TOO_LARGE) to the app's error handler. Nothing of the body was read.
import type { NextFunction, Request, Response } from 'express';
import type { HookObservers } from '../modules/hook-requests/observation.js';
import { HOOK_BODY_LIMIT_BYTES } from '../modules/votes/ingest.service.js';
import { bodyParserError } from './error-response.js';

export function observeOversizedHooks(observers: HookObservers) {
  return (err: unknown, req: Request, _res: Response, next: NextFunction) => {
    if (bodyParserError(err)?.code === 'PAYLOAD_TOO_LARGE') {
      const path = req.originalUrl.split('?')[0];
      // Mounted at /hooks: req.path is /<org>/<provider>[/<secret>] (percent-decoded as Express decodes parameters).
      const [orgSlug = '', providerKey = ''] = req.path.split('/').filter(Boolean).map((s) => safeDecode(s).toLowerCase());
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const query: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(req.originalUrl.split('?')[1] ?? '')) query[name] ??= value;
      observers.tell({
        receivedAt: new Date(),
        durationMs: 0,
        orgSlug,
        providerKey,
        organizationId: null,
        provider: null,
        clientIp: req.ip ?? 'unknown',
        method: req.method.toUpperCase(),
        path,
        protocol: 'http',
        outcome: 'refused',
        status: 413,
        errorCode: 'PAYLOAD_TOO_LARGE',
        reason: `Hook bodies are at most ${HOOK_BODY_LIMIT_BYTES} bytes`,
        voterName: null,
        voteId: null,
        headers,
        query,
        body: Buffer.alloc(0),
        testVote: false,
      });
    }
    next(err);
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
