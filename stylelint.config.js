// stylelint, run by `npm run lint` (and so by `npm test`). A stylesheet that does not parse — an
// unclosed block turned every rule after line 700 of the old global.css into a phone-only rule —
// fails here, before any browser test.
export default {
  extends: ['stylelint-config-standard'],
  ignoreFiles: ['dist/**', 'node_modules/**', 'test-results/**', 'coverage/**'],
  rules: {
    // BEM: block__element--modifier.
    'selector-class-pattern': [
      '^[a-z][a-z0-9]*(-[a-z0-9]+)*(__[a-z0-9]+(-[a-z0-9]+)*)?(--[a-z0-9]+([-_][a-z0-9]+)*)?$',
      { message: 'Class names are BEM in kebab-case: block__element--modifier' },
    ],
  },
};
