// A hook body over the limit is refused by the body parser before the hook route (and ingest) runs: this tells the
// hook watchers (deps.hookObservers: the operator's log, the request log) about it as about any other refusal,
// then leaves the answer (413 PAYLOAD_TOO_LARGE) to the app's error handler. Nothing of the body was read.
import type { NextFunction, Request, Response } from 'express';
import { refusedBeforeIngest, type HookObservers } from '../modules/hook-requests/observation.js';
import { HOOK_BODY_LIMIT_BYTES } from '../modules/votes/ingest.service.js';
import { bodyParserError } from './error-response.js';
import { hookRequest } from './hook-request.js';

export function observeOversizedHooks(observers: HookObservers) {
  return (err: unknown, req: Request, _res: Response, next: NextFunction) => {
    if (bodyParserError(err)?.code === 'PAYLOAD_TOO_LARGE') {
      // Mounted at /hooks: req.path is /<org>/<provider>[/<secret>] (percent-decoded as Express decodes parameters).
      const [orgSlug = '', providerKey = ''] = req.path
        .split('/')
        .filter(Boolean)
        .map((s) => safeDecode(s).toLowerCase());
      const { method, headers, query, path } = hookRequest(req);
      observers.tell(
        refusedBeforeIngest({
          receivedAt: new Date(),
          durationMs: 0,
          orgSlug,
          providerKey,
          clientIp: req.ip ?? 'unknown',
          method,
          path: path!,
          protocol: 'http',
          status: 413,
          errorCode: 'PAYLOAD_TOO_LARGE',
          reason: `Hook bodies are at most ${HOOK_BODY_LIMIT_BYTES} bytes`,
          headers,
          query,
        }),
      );
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
