#!/usr/bin/env node
// Part of `npm run build`: the OpenAPI 3.0 and 3.1 schema validators as ajv's
// standalone code beside dist/load/validate.js, so that no run compiles them
// (a quarter of a second each time). See precompiled() in src/load/validate.ts.
import { writeFileSync } from 'node:fs';
import { precompiledFile, precompiledSource } from '../dist/load/validate.js';

for (const version of ['3.0', '3.1']) {
  writeFileSync(new URL(`../dist/load/${precompiledFile(version)}`, import.meta.url), precompiledSource(version));
}
