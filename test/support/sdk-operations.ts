import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One HTTP operation of the SDK: `client.<namespace>.<method>()` sends `<httpMethod> /<path>`. */
export interface SdkOperation {
  namespace: string;
  method: string;
  httpMethod: string;
  /** The path as the SDK builds it, with `{name}` where it puts a path parameter. */
  path: string;
}

const require = createRequire(import.meta.url);

/** The SDK's compiled resource clients (`dist/cjs/api/resources/<namespace>/client/Client.js`). */
function resourcesDir(): string {
  const pkg = require.resolve('@tryvital/vital-node/package.json');
  return join(dirname(pkg), 'dist', 'cjs', 'api', 'resources');
}

const METHOD_START = /^ {4}__([A-Za-z0-9]+)\(/gm;
const URL_PATH = /VitalEnvironment\.Production, (?:"([^"]*)"|`([^`]*)`)\)/;
const HTTP_METHOD = /method: "([A-Z]+)"/;

/**
 * Reads every operation the SDK can send from its compiled clients: each public method delegates to a
 * private `__<method>` that builds the URL and the HTTP method. Reading the source (rather than calling each
 * method) finds operations whose request body the SDK would refuse to serialise with placeholder input.
 */
export function sdkOperations(): SdkOperation[] {
  const ops: SdkOperation[] = [];
  for (const namespace of readdirSync(resourcesDir())) {
    let source: string;
    try {
      source = readFileSync(join(resourcesDir(), namespace, 'client', 'Client.js'), 'utf8');
    } catch {
      continue; // a folder of types only
    }
    const starts = [...source.matchAll(METHOD_START)];
    starts.forEach((m, i) => {
      const body = source.slice(m.index, starts[i + 1]?.index ?? source.length);
      const url = URL_PATH.exec(body);
      const verb = HTTP_METHOD.exec(body);
      if (!url || !verb) return;
      const raw = url[1] ?? url[2] ?? '';
      // `${core.url.encodePathParam(user_id)}`, `${core.url.encodePathParam(serializers.Providers.jsonOrThrow(provider))}`
      const path = raw.replace(/\$\{[^}]*?([A-Za-z0-9_]+)\)*\}/g, '{$1}');
      ops.push({ namespace, method: m[1]!, httpMethod: verb[1]!, path: `/${path.replace(/^\//, '')}` });
    });
  }
  return ops.sort((a, b) => `${a.namespace}.${a.method}`.localeCompare(`${b.namespace}.${b.method}`));
}

/** The path with a placeholder in each parameter (a UUID: most path ids are UUIDs, the rest are strings). */
export function concretePath(path: string): string {
  return path.replace(/\{[A-Za-z0-9_]+\}/g, '00000000-0000-4000-8000-000000000000');
}
