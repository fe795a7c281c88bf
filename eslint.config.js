// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

// Layer rules (ARCHITECTURE.md § Layers: arrows point down only). In a flat config a later block's
// options for a rule replace an earlier block's, so every block below restates the bans that
// apply to all of src/ (React, Ink, vitest) besides its own layer's.
const uiLibraries = [
  { name: 'react', message: 'src/ never imports React: renderers/ do.' },
  { name: 'ink', message: 'src/ never imports Ink: renderers/ do (src/cli may lazy-load renderers).' },
]
const vitest = {
  name: 'vitest',
  message: 'vitest is an optional peer that only chatrail/testing/vitest may load: put the suite in src/testing/conformance/ and export it from src/testing/vitest.ts, so chatrail/testing loads without vitest and from CommonJS.',
}
/** `no-restricted-imports` for one layer: the src/-wide bans plus `patterns`. */
const layer = (patterns, paths = [...uiLibraries, vitest]) => ({ rules: { 'no-restricted-imports': ['error', { paths, patterns }] } })
// The files of chatrail/testing/vitest: the only ones that may import vitest.
const vitestEntryFiles = ['src/testing/vitest.ts', 'src/testing/register-matchers.ts', 'src/testing/conformance/**', 'src/testing/conversations/define-conversation-tests.ts']

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
  { files: ['src/**'], ...layer([]) },
  { files: vitestEntryFiles, ...layer([], uiLibraries) },
  {
    files: ['src/contract/**'],
    ...layer([{ regex: '^\\.\\./', message: 'src/contract is the bottom layer: it imports only its own files (and zod), nothing else of chatrail.' }]),
  },
  {
    files: ['src/controller/**'],
    ...layer([{ group: ['**/conversation/**', '**/agents/**', '**/renderers/**', '**/testing/**', '**/cli/**'], message: 'contract and controller sit at the bottom: imports point down only.' }]),
  },
  {
    files: ['src/conversation/**'],
    ...layer([
      {
        regex: '^\\.\\./(?!contract/)',
        message: 'src/conversation imports only src/contract and its own files: agents, testing, the CLI, renderers, the controller and stores sit above it (the live-agent vocabulary is in src/contract).',
      },
    ]),
  },
  {
    files: ['src/agents/**'],
    ...layer([{ group: ['**/testing/**', '**/cli/**', '**/renderers/**'], message: 'src/agents are plugins over the contract and the conversation layer: they never import testing, the CLI or renderers.' }]),
  },
  {
    files: ['src/components/**'],
    ...layer([
      {
        regex: '^\\.\\./(?!contract/|conversation/(config-error|interactions|interaction-judge)\\.js$)',
        message: 'src/components sits on src/contract (and the config error of src/conversation): sessions, servers and renderers use it, it uses none of them.',
      },
    ]),
  },
  {
    files: ['src/store/**'],
    ...layer([
      {
        group: ['**/controller/**', '**/agents/**', '**/testing/**', '**/cli/**', '**/renderers/**', '**/server/**', '**/client/**', '**/protocol/**', 'node:http', 'node:https'],
        message: 'src/store imports only src/contract and src/conversation: no controller (take a factory), no agents, no HTTP.',
      },
    ]),
  },
  {
    files: ['src/client/**'],
    ...layer([
      {
        group: ['**/controller/**', '**/agents/**', '**/testing/**', '**/cli/**', '**/renderers/**', '**/server/**', '**/store/**', '**/ai-sdk/**', 'node:*'],
        message: 'src/client is browser-safe: it imports only src/contract, src/conversation and the wire codec in src/protocol (no node: modules, no server or store).',
      },
    ]),
  },
  {
    files: ['src/view/**'],
    ...layer([
      {
        group: ['**/agents/**', '**/testing/**', '**/cli/**', '**/renderers/**', '**/server/**', '**/store/**', '**/devtools/**', 'node:*'],
        message: 'src/view is the framework-neutral view model every renderer mounts: it sits on the contract, controller, conversation, components and client layers, and imports no framework, no Node module and nothing above it.',
      },
    ]),
  },
  {
    files: ['src/ai-sdk/**'],
    ...layer([{ group: ['**/controller/**', '**/agents/**', '**/testing/**', '**/cli/**', '**/renderers/**', '**/server/**', '**/store/**', '**/client/**'], message: 'src/ai-sdk is an adapter over the contract: the controller and the session use it, it uses neither.' }]),
  },
)
