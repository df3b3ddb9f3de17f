// GraphiQL at GET /graphql as a page with no inline script: the bundle that @graphql-yoga/render-graphiql would
// inline (its script, stylesheet, Monaco's three editor workers and the icon) is served as files under
// /graphql/assets/, and the page's options travel as a JSON data block, so the page runs under a
// Content-Security-Policy of `script-src 'self'; worker-src 'self'` (src/http/security-headers.ts).
import { css, editorWorkerService, favicon, graphqlWorker, js, jsonWorker } from '@graphql-yoga/render-graphiql/graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';

export const GRAPHIQL_ASSETS_PATH = '/graphql/assets';

/** Starts Monaco with its workers as files (the inline original made them from blob: URLs) and renders GraphiQL. */
const INIT = `(function () {
  var base = document.currentScript.getAttribute('data-assets');
  var workers = { editorWorkerService: base + '/editor.worker.js', json: base + '/json.worker.js', graphql: base + '/graphql.worker.js' };
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: function (_moduleId, label) { return workers[label]; } };
  var options = JSON.parse(document.getElementById('graphiql-options').textContent);
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
})();
`;

const asBytes = (text: string) => Buffer.from(text, 'utf8');
const FILES: Record<string, { type: string; body: Buffer }> = {
  'graphiql.js': { type: 'text/javascript', body: asBytes(js) },
  'graphiql.css': { type: 'text/css', body: asBytes(css) },
  'init.js': { type: 'text/javascript', body: asBytes(INIT) },
  'editor.worker.js': { type: 'text/javascript', body: asBytes(editorWorkerService) },
  'json.worker.js': { type: 'text/javascript', body: asBytes(jsonWorker) },
  'graphql.worker.js': { type: 'text/javascript', body: asBytes(graphqlWorker) },
  'favicon.ico': { type: 'image/x-icon', body: Buffer.from(favicon.slice(favicon.indexOf(',') + 1), 'base64') },
};
/** The files change only with the package: a content hash lets browsers keep them and revalidate cheaply. */
const ETAGS = Object.fromEntries(Object.entries(FILES).map(([name, f]) => [name, `"${createHash('sha256').update(f.body).digest('base64url').slice(0, 27)}"`]));

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside <script type="application/json"> must not be able to close the element. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page yoga answers a browser's GET /graphql with (its `renderGraphiQL` option). */
export function graphiqlPage(options?: GraphiQLOptions): string {
  const assets = GRAPHIQL_ASSETS_PATH;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(options?.title ?? 'GraphiQL'))}</title>
<link rel="icon" href="${assets}/favicon.ico">
<link rel="stylesheet" href="${assets}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${jsonForScript(options ?? {})}</script>
<script src="${assets}/graphiql.js"></script>
<script src="${assets}/init.js" data-assets="${assets}"></script>
</body>
</html>
`;
}

/** GET /graphql/assets/<file>: GraphiQL's files, mounted before /graphql's API key and rate limit (they are public). */
export function graphiqlAssets(): Router {
  const router = express.Router();
  router.get('/:file', (req: Request, res: Response, next) => {
    const name = String(req.params.file);
    const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!file) return next();
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('ETag', ETAGS[name]); // res.send answers 304 when the browser's copy is current
    res.type(file.type).send(file.body);
  });
  return router;
}
