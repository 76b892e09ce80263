// One lint setup for the repository, with the import boundaries of ARCHITECTURE.md §1-§2.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const restrict = (patterns) => ['error', { patterns }];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/drizzle/**', 'e2e/artifacts/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // packages/shared imports only zod.
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([{ regex: '^(?!zod$|vitest$|\\.{1,2}/)', message: 'shared imports only zod' }]),
    },
  },
  // The server never imports the web app; platform/ imports no module; modules meet only through index.ts.
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/apps/web/**', '@conversa/web', '@conversa/web/*'],
          message: 'server and web never import each other',
        },
      ]),
    },
  },
  {
    files: ['apps/server/src/platform/**/*.ts'],
    ignores: ['apps/server/src/platform/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/modules/**', '**/integrations/**'], message: 'platform/ knows no domain' },
        { group: ['**/apps/web/**'], message: 'server and web never import each other' },
      ]),
    },
  },
  {
    files: ['apps/server/src/modules/*/*.ts', 'apps/server/src/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/web/**'], message: 'server and web never import each other' },
        {
          regex: '^\\.\\./(?!\\.\\./)([a-z-]+)/(?!index\\.js$|\\1\\.tables\\.js$).+$',
          message: 'another module is used only through its index.ts (or its tables file, the schema layer)',
        },
      ]),
    },
  },
  // The schema layer: a tables file references only other tables files, never a module's services.
  {
    files: ['apps/server/src/modules/*/*.tables.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/web/**'], message: 'server and web never import each other' },
        {
          regex: '^\\.\\./(?!\\.\\./)([a-z-]+)/(?!\\1\\.tables\\.js$).+$',
          message: 'a tables file imports only tables files',
        },
      ]),
    },
  },
  // The web app: never the server; features do not import each other (src/app composes them).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        {
          group: ['**/apps/server/**', '@conversa/server', '@conversa/server/*'],
          message: 'server and web never import each other',
        },
      ]),
    },
  },
  {
    files: ['apps/web/src/features/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/server/**', '@conversa/server'], message: 'server and web never import each other' },
        {
          // A file at a feature's root reaches src/lib and src/components with ../../.
          group: ['../../*/**', '**/features/*/**', '!../../../**', '!../../lib/**', '!../../components/**'],
          message: 'features do not import each other',
        },
      ]),
    },
  },
  // The same boundary one folder deeper (features/<x>/components/<group>/): ../../ is still inside the feature.
  {
    files: ['apps/web/src/features/*/*/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/apps/server/**', '@conversa/server'], message: 'server and web never import each other' },
        {
          group: ['../../../*/**', '**/features/*/**', '!../../../../**'],
          message: 'features do not import each other',
        },
      ]),
    },
  },
);
