#!/usr/bin/env node
// Only the version check is imported statically: on an older Node, a dependency would fail as it loads.
import { setFlagsFromString } from 'node:v8';
import { nodeVersionProblem, requiredNodeRange } from './node-version.js';

// A run is one batch over the spec: at V8's default budget TurboFan optimizes some 1,300 functions
// that run little longer (GitHub's spec: 5 s of CPU on background threads). Ten times the budget
// optimizes the hot ones only: 8% less CPU there. Worker threads share the flag; a user's own wins.
if (!`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.includes('--interrupt-budget')) setFlagsFromString('--interrupt-budget=1000000');

const tooOld = nodeVersionProblem(process.versions.node, requiredNodeRange());
if (tooOld) {
  process.stderr.write(tooOld + '\n');
  process.exitCode = 1;
} else {
  const [{ hideBin }, { main }] = await Promise.all([import('yargs/helpers'), import('./main.js')]);
  process.exitCode = await main(hideBin(process.argv));
}
