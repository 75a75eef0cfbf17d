// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/reference/**', 'scripts/fixtures/node_modules/**', 'scripts/fixtures/python/.venv*/**', 'test/fixtures/**', '.kafka/**', '.cache/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
      // Destructuring callback payloads (kafkajs eachBatch, node:http) is idiomatic here.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['scripts/**', 'bench/**'], rules: { 'no-console': 'off' } },
  // Layers point down: extraction takes decoded spans and does not know the wire format (issue 32, item 10).
  {
    files: ['src/extract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/ingest/**', '**/ingest'], message: 'src/extract takes decoded spans; decoding stays in src/ingest (decode in the caller, as src/api/extract.ts does).' }] }] },
  },
);
