/**
 * pdfjs-dist, loaded so that it changes nothing else in the process.
 *
 * Its legacy build (the one that runs on Node 20) bundles core-js polyfills. Most add what Node 20 lacks
 * (iterator helpers, `Promise.withResolvers`, Set methods) and harm nothing, but three replace natives for
 * the whole process, because V8 before 12 differs from the spec in corners nobody here relies on:
 * `Array.prototype.push` (a JS loop instead of the builtin, for every `push` of every library: postgres.js,
 * the Temporal SDK's rxjs pipelines, drizzle), `JSON.parse` (a wrapper in front of the native one, for every
 * row and payload parsed) and `Function.prototype.toString`. In the worker they were ≈ 2% of the main
 * thread's samples on their own in a `bench:orders` profile, besides keeping V8 from inlining `push`.
 * This loader keeps the natives as they were before pdfjs ran and puts them back once it has loaded; the
 * polyfills that only add missing methods stay. The service imports pdfjs's runtime only through here (lint
 * refuses a direct import outside the corpus generator, a build script).
 */
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type Pdfjs = typeof PdfjsModule;

const REPLACED: [object, PropertyKey][] = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [Function.prototype, 'toString'],
];
/** Taken when this module is first evaluated, before pdfjs has run (it is loaded only through here). */
const natives = REPLACED.map(([owner, key]) => ({ owner, key, descriptor: Object.getOwnPropertyDescriptor(owner, key)! }));

/** Puts back the natives pdfjs's polyfills replaced (exported for the test that checks it). */
export function restoreNatives(): void {
  for (const { owner, key, descriptor } of natives) {
    const now = Object.getOwnPropertyDescriptor(owner, key);
    if (now?.value !== descriptor.value) Object.defineProperty(owner, key, descriptor);
  }
}

let loading: Promise<Pdfjs> | undefined;

/**
 * pdfjs-dist's legacy build, imported once, with the natives it replaced put back. Its worker module (which
 * parses the documents; in Node it runs on the main thread, as pdfjs's "fake worker") carries the same
 * polyfills and would otherwise be imported at the first `getDocument`: it is loaded here too and handed to
 * pdfjs through `globalThis.pdfjsWorker`, the hook pdfjs looks at before importing it itself.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    try {
      const [pdfjs, worker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
      return pdfjs;
    } finally {
      restoreNatives();
    }
  })();
  return loading;
}
