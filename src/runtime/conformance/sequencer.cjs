// Runs rate-limit.test.ts after every other file: against BASE_URL it spends the window.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

module.exports = class RateLimitLast extends Sequencer {
  sort(tests) {
    const last = (test) => (relative(__dirname, test.path) === 'rate-limit.test.ts' ? 1 : 0);
    return [...tests].sort((a, b) => last(a) - last(b) || a.path.localeCompare(b.path));
  }
};
