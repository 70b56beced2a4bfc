// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.data/**', 'coverage/**', '.tmp/**', 'db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // pdfjs's legacy build replaces natives (Array.prototype.push, JSON.parse) for the whole process when it
      // loads: lib/pdfjs.ts loads it and puts them back.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'pdfjs-dist/legacy/build/pdf.mjs', message: 'Load pdfjs with loadPdfjs() from lib/pdfjs.ts.', allowTypeImports: true }] },
      ],
    },
  },
  {
    // the corpus generator is a build script, not a service process
    files: ['test/fixtures/lab-report-corpus/generator/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // Workflow code must be deterministic: it is replayed from history on any worker at any time.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows must not use Node built-ins (non-deterministic I/O).' })),
          patterns: [
            {
              group: ['**/activities/**', '**/db/**', '**/api/**', '**/lib/**', 'postgres', 'drizzle-orm', 'drizzle-orm/*', 'pino', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
              message: 'Workflows may import activities as types only (proxyActivities<typeof …>) and no I/O modules.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time (workflowInfo() or a timer), not Date.now(), in workflows.' },
        { object: 'Math', property: 'random', message: 'Use a deterministic source (e.g. uuid4() from @temporalio/workflow), not Math.random().' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() or condition(fn, timeout) from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop from @temporalio/workflow.' },
        { name: 'fetch', message: 'Do I/O in an activity.' },
        { name: 'process', message: 'Workflows have no process environment.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'new Date() without arguments is wall-clock time: use workflowInfo() in workflows.' },
        { selector: "CallExpression[callee.property.name='forEach'] > ArrowFunctionExpression[async=true]", message: 'forEach(async …) floats promises; use for…of with await or Promise.all.' },
      ],
    },
  },
);
