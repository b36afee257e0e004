#!/usr/bin/env node
// Part of `npm run build`: what every run would otherwise compile anew, compiled
// once into dist beside the module that loads it. Each loader falls back to
// compiling when its file is missing (the TypeScript sources under Jest).
// - The OpenAPI 3.0 and 3.1 schema validators, as ajv's standalone code
//   (0.25 s a run): precompiled() in src/load/validate.ts.
// - The built-in Handlebars templates (70 ms a run): precompiledTemplates()
//   in src/render/handlebars.ts.
import { writeFileSync } from 'node:fs';
import { precompiledFile, precompiledSource } from '../dist/load/validate.js';
import { PRECOMPILED_TEMPLATES, precompiledTemplatesSource } from '../dist/render/handlebars.js';
import { loadResources } from '../dist/resources.js';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url);
for (const version of ['3.0', '3.1']) writeFileSync(dist(`load/${precompiledFile(version)}`), precompiledSource(version));
writeFileSync(dist(`render/${PRECOMPILED_TEMPLATES}`), precompiledTemplatesSource(loadResources().templates));
