// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', 'examples/**/dist/**', 'test/fixtures/**'] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'List every export by name (no export *).' }],
    },
  },
  {
    files: ['src/contract/**', 'src/controller/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/conversation/**', '**/agents/**', '**/renderers/**', '**/testing/**', '**/cli/**'], message: 'contract and controller sit at the bottom: imports point down only.' }] },
      ],
    },
  },
  {
    files: ['src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'react', message: 'src/ never imports React: renderers/ do.' }, { name: 'ink', message: 'src/ never imports Ink: renderers/ do (src/cli may lazy-load renderers).' }] },
      ],
    },
  },
)
