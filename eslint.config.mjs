// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One lint for the whole tree (`npm run lint`, part of `npm test`). TypeScript is linted with
 * typescript-eslint's type-checked rules: a promise nobody awaits is the classic Lambda bug.
 * Formatting is Prettier's alone (`npm run format:check`), so no rule here is about layout.
 */
export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.local/',
      'dist/',
      'coverage/',
      'test-output/',
      '.build/',
      'infra/native-modules/',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // An async function with no await is how a function that may throw gives a rejection
      // instead, as the interface it implements expects (a store's method, a middleware's
      // hook); turning it sync would change how its errors travel.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests read response bodies as parsed JSON and hand them to expect(), which checks their
    // shape; typing each body first would only repeat the assertion. jest's expect(mock.method)
    // is unbound-method's known false positive.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // These modules build or read JSON documents that have no TypeScript type of their own: the
    // OpenAPI document, the synthesized CloudFormation template, the bodies of Stripe's and
    // DynamoDB's wire protocols in the local emulators. Their `any` is that JSON's; what they
    // produce is checked where it counts (the OpenAPI lint and conformance tests, the permission
    // table test, the real Stripe SDK and AWS SDK as their clients).
    files: [
      'scripts/openapi/**/*.ts',
      'infra/permission-table.ts',
      'scripts/local/stripe-emulator.ts',
      'scripts/local/realistic-dynamodb/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The page's scripts are plain browser scripts (no modules, no build step), loaded in order.
    files: ['web/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    ignores: ['web/**'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
);
