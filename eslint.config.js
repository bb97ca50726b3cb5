// The linter keeps the shape (docs/ARCHITECTURE.md, "Rules"): the type-aware recommended rules (no floating
// promises among them), no import cycles, the boundaries between the engine, the contract, the hosts, their kit,
// the service, the runner, the renderer, the bench and the tests, and React's hook rules. `npm test` runs it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const PROJECTS = ['./tsconfig.json', './renderer/tsconfig.json', './tests/renderer/tsconfig.json', './tests/tsconfig.shell.json'];

const HOSTS = { cli: './electron/cli', shell: ['./electron/shell', './electron/main.ts'], engineHost: './electron/engine-host' };
const ALL_HOSTS = [HOSTS.cli, ...HOSTS.shell, HOSTS.engineHost];
const because = (message) => ({ message });

/** Who may import whom: each zone forbids `target` to import `from` (import-x/no-restricted-paths). */
const ZONES = [
  // The engine is plain Node and knows nothing above it.
  {
    target: './electron/engine',
    from: [
      './electron/ipc',
      './electron/service',
      './electron/host-kit',
      './electron/runner',
      './electron/preload',
      './electron/launch.ts',
      ...ALL_HOSTS,
      './renderer',
      './bench',
      './tests',
    ],
    ...because('the engine imports only node:* and electron/engine/** (docs/ARCHITECTURE.md)'),
  },
  // The contract sits on the engine only.
  {
    target: './electron/ipc',
    from: ['./electron/service', './electron/host-kit', './electron/runner', './electron/preload', ...ALL_HOSTS, './renderer'],
    ...because('the contract (electron/ipc) imports only the engine'),
  },
  // Hosts stand side by side: none imports another.
  {
    target: HOSTS.cli,
    from: [...HOSTS.shell, HOSTS.engineHost],
    ...because('no host imports another host: share it through electron/host-kit'),
  },
  {
    target: HOSTS.shell,
    from: [HOSTS.cli, HOSTS.engineHost],
    ...because('no host imports another host: share it through electron/host-kit'),
  },
  {
    target: HOSTS.engineHost,
    from: [HOSTS.cli, ...HOSTS.shell],
    ...because('no host imports another host: share it through electron/host-kit'),
  },
  // The kit is below every host and the service.
  {
    target: './electron/host-kit',
    from: [...ALL_HOSTS, './electron/service', './electron/runner'],
    ...because('the host kit imports only the engine, the contract and itself'),
  },
  // The service is host-neutral: the host injects the runner and the file policy.
  {
    target: './electron/service',
    from: [...ALL_HOSTS, './electron/runner'],
    ...because('the service imports no host and no runner: the host injects them'),
  },
  // The runner implements the engine's RunnerHost; hosts inject it.
  {
    target: './electron/runner',
    from: [...ALL_HOSTS, './electron/service', './electron/host-kit'],
    ...because('the runner imports only the engine'),
  },
  // The renderer reaches electron/ through three modules only.
  {
    target: './renderer/src',
    from: './electron',
    except: ['./ipc/contract.ts', './ipc/wire.ts', './engine/view/public.ts'],
    ...because('the renderer reaches electron/ only through ipc/contract.ts, ipc/wire.ts and engine/view/public.ts'),
  },
  // Tests and the bench share code through bench/lib only; the product imports neither.
  { target: ['./electron', './renderer'], from: ['./bench', './tests'], ...because('the product never imports the bench or the tests') },
  { target: './bench', from: './tests', ...because('the bench never imports the tests: shared code lives in bench/lib') },
  { target: './bench/lib', from: './bench', except: ['./lib'], ...because('bench/lib imports no other bench file') },
  { target: './tests', from: './bench', except: ['./lib'], ...because('tests import from bench/ only its lib/') },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'native/build/**',
      'assets/**',
      'bench/results/**',
      'tests/e2e/screenshots/**',
      '**/*.cjs',
      '**/*.js',
      '**/*.mjs',
      '!eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: PROJECTS, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: PROJECTS, noWarnOnMultipleProjects: true })],
    },
    rules: {
      // An `async` method that implements a Promise-returning interface keeps a throw a rejection; requiring an
      // `await` in it would push callers towards `Promise.resolve` wrappers that throw synchronously instead.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a deliberately unused name: a parameter an interface requires, a destructured rest.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Type-only cycles are allowed (they vanish at run time); value cycles are not.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: ZONES }],
      // Only the seam and the preload load Electron at run time; everything else runs under a fake in tests.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              allowTypeImports: true,
              message: 'only electron/shell/electron-seam.ts and electron/preload/index.ts import electron at run time',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/shell/electron-seam.ts', 'electron/preload/index.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // Tests read parsed JSON, page.evaluate results and loosely typed fakes on purpose: the assertions are the type
    // check there. Vitest's `expect(obj.method)` spies are unbound methods by design.
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The two rules of hooks. react-hooks 7's recommended set adds the React Compiler's rules (no setState in an
    // effect, no ref read in render, no impure call in render); this renderer is not built with the compiler, and its
    // effects that reset state on a new document are deliberate.
    files: ['renderer/**/*.{ts,tsx}', 'tests/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['eslint.config.js', '**/vite*.config.ts', 'renderer/*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
