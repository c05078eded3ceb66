// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FRAMEWORKS = ['@oclif/*', 'hono', 'hono/*', '@hono/*', 'ink', 'react', 'react/*'];
const DRIVERS = ['oxigraph', 'better-sqlite3'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.scratch/', 'ui/dist/', 'data/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.js', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Core is framework-free, and each driver lives behind one module of the store layer.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...FRAMEWORKS, ...DRIVERS],
              message: 'core imports no CLI/HTTP framework, and drivers only in their store module',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'core never exits the process' },
        { object: 'process', property: 'argv', message: 'core never reads argv' },
      ],
    },
  },
  {
    files: ['src/core/store/database.ts', 'src/core/store/migrations.ts', 'src/core/store/backup-file.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: [...FRAMEWORKS, 'oxigraph'] }] }] },
  },
  {
    // oxigraph: the query index's worker, and the graph serialisations /sparql offers beyond Turtle.
    files: ['src/core/store/graph/embedded/index-worker.ts', 'src/core/store/graph/graph-formats.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...FRAMEWORKS, 'better-sqlite3'] }] }],
    },
  },
  {
    files: ['src/commands/**/*.ts', 'src/http/**/*.ts', 'src/cli/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: DRIVERS, message: 'drivers are reached only through core' }] },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        URL: 'readonly',
        console: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
);
