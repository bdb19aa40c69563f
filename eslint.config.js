// ESLint (flat config), run by `npm run lint` and so by `npm test`. Formatting is Prettier's job
// (eslint-config-prettier turns the overlapping rules off); this file is about correctness, hooks,
// accessibility and the boundaries between the parts of the code.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dirs = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Client features are independent: a feature never imports another feature (pages compose them).
 * Shared UI (`client/components`) and app wiring (`client/app`) sit below every feature and page.
 */
const clientFeatures = dirs('./client/features');
const clientZones = [
  ...clientFeatures.map((feature) => ({
    target: `./client/features/${feature}`,
    from: './client/features',
    except: [`./${feature}`],
    message: 'A client feature must not import another feature: compose them in a page (client/pages) instead.',
  })),
  {
    target: ['./client/components', './client/app'],
    from: ['./client/features', './client/pages', './client/layouts'],
    message: 'Shared UI and app wiring sit below features, pages and layouts and must not import them.',
  },
  { target: './client/features', from: './client/pages', message: 'Features must not import pages.' },
];

/**
 * Server modules: `common/` is the floor every module stands on, so it must not depend on a
 * feature module; `src/` and `client/` meet only in the framework-free `lib/`.
 */
const serverModules = dirs('./src').filter((dir) => dir !== 'common' && dir !== 'config');
const boundaryZones = [
  ...clientZones,
  {
    target: './src/common',
    from: serverModules.map((dir) => `./src/${dir}`),
    message: 'src/common must not import a feature module: depend on an interface declared in common/ instead.',
  },
  { target: './src', from: './client', message: 'The server must not import client code; share it through lib/.' },
  { target: './client', from: './src', message: 'The client must not import server code; share it through lib/.' },
  {
    target: './companions/desktop/src',
    from: ['./client/app', './client/pages', './client/layouts', './client/routes.tsx', './src'],
    message: 'The desktop window shares lib/ and router-free UI only: the web app’s router, data layer and pages stay in the site.',
  },
  {
    target: './lib',
    from: ['./src', './client', './test'],
    message: 'lib/ is framework-free and shared: it must not import src/, client/ or test/.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'data/**',
      '.cache/**',
      'test/fixtures/**',
      'database-launcher/**',
      'companions/desktop/src-tauri/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      // Nest reads constructor and handler parameter types at run time (emitDecoratorMetadata): an
      // import used only as such a type must stay a value import, and these options tell the
      // type-import rule so.
      parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true },
    },
    // Resolves `./x.js` specifiers to the `.ts` sources, as TypeScript's NodeNext resolution does.
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // Unit specs beside lib/ code read the shared test fixtures.
    files: ['lib/**/*.spec.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaryZones.filter((zone) => zone.target !== './lib') }] },
  },
  {
    // lib/ is shared by the server and the browser: no framework, no Node-only or DOM-only globals by accident.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-*', 'react/*', '@tanstack/*'], message: 'lib/ is framework-free: React belongs in client/.' },
            {
              group: ['@nestjs/*', 'mongoose', 'mongodb', 'express', 'passport*'],
              message: 'lib/ is framework-free: Nest and the database belong in src/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ['client/**/*.worker.ts'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // The desktop app's window (Tauri's webview): React in a browser environment, as client/.
    files: ['companions/desktop/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // Hitscope for Browsers: React pages and a service worker with the WebExtension APIs (`chrome`).
    files: ['companions/browser/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.webextensions, ...globals.serviceworker } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ['companions/desktop/src/**/*.worker.ts'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ['test/browser/**/*.ts', 'test/extension/**/*.ts', 'scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
  },
  prettier,
);
