#!/usr/bin/env node
// Only the version check is imported statically: on an older Node, a dependency would fail as it loads.
import { nodeVersionProblem, requiredNodeRange } from './node-version.js';

const tooOld = nodeVersionProblem(process.versions.node, requiredNodeRange());
if (tooOld) {
  process.stderr.write(tooOld + '\n');
  process.exitCode = 1;
} else {
  const [{ hideBin }, { main }] = await Promise.all([import('yargs/helpers'), import('./main.js')]);
  process.exitCode = await main(hideBin(process.argv));
}
