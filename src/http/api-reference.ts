// The API reference page: the OpenAPI document rendered by Swagger UI, whose browser bundle (the swagger-ui-dist
// package) the service serves itself. Nothing is loaded from another host, and the page's Content-Security-Policy
// (src/http/security-headers.ts) says so: a browser refuses any script, style, font or request from elsewhere.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';

const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The only files of the package the page uses (it also ships a demo page that points at another host). */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

/** validatorUrl: null keeps Swagger UI from asking a public validator about the document (its default). */
const INIT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
  });
});
`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(base: string, documentPath: string): string {
  const at = escapeHtml(base);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vote Relay API reference</title>
<link rel="stylesheet" href="${at}/reference/swagger-ui.css">
<link rel="icon" type="image/png" href="${at}/reference/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-url="${at}${escapeHtml(documentPath)}"></div>
<script src="${at}/reference/swagger-ui-bundle.js"></script>
<script src="${at}/reference/init.js"></script>
</body>
</html>
`;
}

/** GET /reference (the page) and its files under /reference/, for the router that serves `documentPath`. */
export function apiReference(documentPath: string): Router {
  const router = express.Router();
  router.get('/reference', (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page(req.baseUrl, documentPath));
  });
  router.get('/reference/init.js', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/javascript').send(INIT);
  });
  router.get('/reference/:file', (req: Request, res: Response, next) => {
    const file = String(req.params.file);
    if (!ASSETS.has(file)) return next();
    res.sendFile(join(DIST, file), { maxAge: '1d' });
  });
  return router;
}
