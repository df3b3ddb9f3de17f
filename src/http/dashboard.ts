// Serves the dashboard (web/, built into web/dist) at / on the API's own port: hashed assets cached for good,
// index.html for every other browser page (client-side routes). Nothing it needs comes from another host.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

const DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/** Paths that belong to the API, never to the dashboard's client-side routes. */
const API_PREFIXES = ['/v1', '/graphql', '/hooks', '/healthz', '/readyz', '/metrics', '/assets', '/vote'];

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Vote Relay</title>
<body style="font-family:system-ui;max-width:40rem;margin:10vh auto">
<h1>Vote Relay</h1><p>The API is running. The dashboard has not been built in this installation:
run <code>npm run build:web</code> (it needs the development dependencies, which <code>npm ci</code> installs).</p>
<p>GraphQL: <a href="/graphql">/graphql</a> · REST: <code>/v1</code></p></body></html>`;

export function dashboard(): Router {
  const router = express.Router();
  const index = `${DIST}index.html`;
  router.use('/assets', express.static(`${DIST}assets`, { immutable: true, maxAge: '365d' }));
  router.use(express.static(DIST, { index: false, maxAge: '1h' }));
  router.get(/.*/, (req: Request, res: Response, next: NextFunction) => {
    if (API_PREFIXES.some((prefix) => req.path === prefix || req.path.startsWith(`${prefix}/`))) return next();
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    if (!existsSync(index)) return void res.status(200).type('html').send(NOT_BUILT);
    res.sendFile(index);
  });
  return router;
}
