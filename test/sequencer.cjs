// The order of specforge's own test files: jest's (the files that failed last time, then the
// longest by the last run's durations), except where jest knows no duration at all (a clean
// clone: it goes by file size), where the two files that take longest start first. Late, either
// would run alone at the end of the run while the other worker idles.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Minutes each, where most files take seconds: a real spec's suite, and the suite against its 60 broken services. */
const LONGEST = ['e2e/real-specs.test.ts', 'e2e/conformance.test.ts'];

module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    // Where jest knows any duration, its order stands (failed first, then the longest).
    if (sorted.some((test) => test.duration != null)) return sorted;
    const rank = (test) => {
      const index = LONGEST.indexOf(relative(__dirname, test.path).split('\\').join('/'));
      return index < 0 ? LONGEST.length : index;
    };
    return sorted.map((test, order) => ({ test, order })).sort((a, b) => rank(a.test) - rank(b.test) || a.order - b.order).map(({ test }) => test);
  }
};
