// The suite's jest environment: node's, plus one map per worker process that every test file
// of that worker sees (globalThis.specforgeConformanceWorker; see perWorker() in harness.ts).
// jest keeps each ESM test file's modules alive until its worker ends (jestjs/jest#14605), so
// what a file loads for itself (the service, the plan, the response schemas) grows the heap
// with every file; what it takes from this map is loaded once per worker.
const { TestEnvironment } = require('jest-environment-node');

const WORKER = new Map();

module.exports = class ConformanceEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // Set before the file runs: jest's globals cleanup then leaves the map as it is.
    this.global.specforgeConformanceWorker = WORKER;
  }
};
