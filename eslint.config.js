import fs from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { florinPlugin } from './eslint/module-boundaries.js';

const webFeatures = fs.existsSync('apps/web/src/features') ? fs.readdirSync('apps/web/src/features') : [];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': {
        typescript: {
          project: [
            'tsconfig.json',
            'apps/*/tsconfig.json',
            'packages/*/tsconfig.json',
            'e2e/tsconfig.json',
            'bench/tsconfig.json',
          ],
        },
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string-literal union or an `as const` map.' },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-default-export': 'error',
    },
  },
  {
    // One use case a file, one step a function (issue 42); migrations are history and stay whole.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['apps/server/src/db/migrations/**'],
    rules: {
      'max-lines': ['error', { max: 500 }],
      'max-lines-per-function': ['error', { max: 250 }],
    },
  },
  {
    // Only config.ts reads the environment (CONVENTIONS 5).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config.ts.' },
      ],
    },
  },
  {
    // Modules reach each other through service.ts, in a graph without cycles; ledger/ and http/ serve
    // modules and import none; test support (src/test/, *.test-kit.ts) serves tests only; only ledger/
    // writes the ledger's tables (issue 42).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/*.test-kit.ts', 'apps/server/src/test/**'],
    plugins: { florin: florinPlugin },
    rules: {
      'florin/module-boundaries': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./apps/server/src/ledger', './apps/server/src/http'],
              from: './apps/server/src/modules',
              message: 'ledger/ and http/ serve the modules and import none of them.',
            },
            {
              target: './apps/server/src',
              from: ['./apps/server/src/**/*.test-kit.ts', './apps/server/src/test/**'],
              message: 'Test support is for tests: production code may not import it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/*.test-kit.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string-literal union or an `as const` map.' },
        {
          selector:
            'CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom)$/] > Literal[value=/^(accounts|entries|journals|holds|house_balance_deltas)$/]',
          message: 'Only ledger/ writes the ledger: post a journal or place a hold through it.',
        },
      ],
    },
  },
  {
    // Features never import each other; shared code flows shared → features → app.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // One zone per feature: it may import itself, never another feature.
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message:
                'A feature may not import another feature: move the shared piece to components/ or lib/.',
            })),
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code may not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    // A cycle must pass through a file that something imports; nothing imports a test or a story, so
    // no-cycle can never fire in them, and walking the import graph from each one was most of its cost.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.spec.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    // Tools that demand a default export.
    files: [
      '**/*.config.ts',
      '**/*.config.js',
      'e2e/**/global-setup.ts',
      'e2e/**/global-teardown.ts',
      'apps/server/src/test/global-setup.ts',
    ],
    rules: { 'import-x/no-default-export': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
