/**
 * GET /openapi.json (the document, built once per process) and GET /docs, an interactive reference
 * page: Swagger UI, pinned in package.json and served from node_modules (no CDN, works offline; its
 * online validator is turned off).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { buildDocument } from './document.js';

const require = createRequire(import.meta.url);

/** The Swagger UI files the page loads, by the name /docs serves them under. */
const ASSETS = {
  'swagger-ui.css': { file: 'swagger-ui-dist/swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-dist/swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
} as const;

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'none',
    filter: true,
    tryItOutEnabled: false,
  });
});
`;

function Page() {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>labflow API reference</title>
        <link rel="stylesheet" href="/docs/swagger-ui.css" />
      </head>
      <body>
        <div id="swagger-ui">
          <noscript>
            This page needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.
          </noscript>
        </div>
        <script src="/docs/swagger-ui-bundle.js"></script>
        <script src="/docs/init.js"></script>
      </body>
    </html>
  );
}

export function openApiRoutes({ publicUrl }: { publicUrl: string }) {
  const app = new Hono<AppEnv>({ strict: false });
  let documentJson: string | undefined;
  const assets = new Map<string, string>();
  const cache = 'public, max-age=3600';

  app.get('/openapi.json', (c) => {
    documentJson ??= JSON.stringify(buildDocument(publicUrl));
    return c.body(documentJson, 200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
  });
  app.get('/docs', (c) => c.html(`<!doctype html>${(<Page />).toString()}`));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': cache }));
  for (const [name, { file, type }] of Object.entries(ASSETS)) {
    app.get(`/docs/${name}`, (c) => {
      let body = assets.get(name);
      if (body === undefined) assets.set(name, (body = readFileSync(require.resolve(file), 'utf8')));
      return c.body(body, 200, { 'content-type': type, 'cache-control': cache });
    });
  }
  return app;
}
