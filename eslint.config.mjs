// ESLint for the whole project: typescript-eslint's recommended rules over the sources, tests,
// benches, evals and scripts, and the one layout rule Prettier cannot enforce (no line over 120
// characters, comments and strings included). Formatting itself is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.cache/',
      'bench/out/',
      'test/fixtures/',
      'test/editor/artifacts/',
      '**/*.vsix',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      // A leading underscore names what is left out on purpose (a destructured field, a port's argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // require() is how this project loads lazily (SQLite on a store's first open) and by path
      // (tools from the editor cache, mocha inside the editor); imports stay the default.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Tests read JSON whose shape is the thing under test.
    files: ['test/**', 'bench/**', 'eval/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS by design: mocha's config and reporter, preload hooks for `node --require`.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
