#!/usr/bin/env node
// Only the version check is imported statically: on an older Node, a dependency would fail as it loads.
import { setFlagsFromString } from 'node:v8';
import { nodeVersionProblem, requiredNodeRange } from './node-version.js';

// A generate is one batch over the spec: at V8's default budget (67,584) TurboFan optimizes some
// 1,300 functions that then run little longer (GitHub's spec: 5 s of CPU on background threads).
// About 15 times the budget optimizes the hot ones only: 8% less CPU there; under --watch the hot
// ones still get there. Worker threads share the flag. A user's own (`node --interrupt-budget=…`) wins.
if (!process.execArgv.some((flag) => /^--interrupt[-_]budget(=|$)/.test(flag))) setFlagsFromString('--interrupt-budget=1000000');

const tooOld = nodeVersionProblem(process.versions.node, requiredNodeRange());
if (tooOld) {
  process.stderr.write(tooOld + '\n');
  process.exitCode = 1;
} else {
  const [{ hideBin }, { main }] = await Promise.all([import('yargs/helpers'), import('./main.js')]);
  process.exitCode = await main(hideBin(process.argv));
}
