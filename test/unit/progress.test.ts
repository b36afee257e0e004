/** The live progress line on a terminal (cli/output.ts): what it says, how often it is redrawn. */
import { liveProgress, progressLine } from '../../src/cli/output.js';

function harness() {
  let now = 0;
  let tick: (() => void) | undefined;
  const writes: string[] = [];
  const progress = liveProgress({
    write: (text) => writes.push(text),
    paint: (text) => text,
    now: () => now,
    every: (run) => {
      tick = run;
      return () => (tick = undefined);
    },
  });
  return {
    progress,
    writes,
    at: (ms: number) => (now = ms),
    tick: () => tick?.(),
    ticking: () => tick !== undefined,
  };
}

test('the line: stage, files done of those produced so far (+ while more come), whole seconds', () => {
  expect(progressLine('load', undefined, 1_499)).toBe('load           1 s …');
  expect(progressLine('render+format', { done: 312, total: 640, rendering: true }, 4_200)).toBe('render+format  312/640+ files  4 s …');
  expect(progressLine('render+format', { done: 640, total: 640, rendering: false }, 9_000)).toBe('render+format  640/640 files  9 s …');
});

test('drawn at the start, on every tick, and at most every 250 ms as files finish; the end line replaces it and stops the ticks', () => {
  const { progress, writes, at, tick, ticking } = harness();
  progress.start('render+format');
  expect(writes).toEqual(['\r\u001b[K  render+format  0 s …']);
  for (let done = 1; done <= 10; done++) {
    at(done * 50);
    progress.files!({ done, total: 10, rendering: false });
  }
  // 50 … 500 ms: redrawn at 250 and 500 only.
  expect(writes.slice(1)).toEqual(['\r\u001b[K  render+format  5/10 files  0 s …', '\r\u001b[K  render+format  10/10 files  0 s …']);
  at(2_100);
  tick();
  expect(writes.at(-1)).toBe('\r\u001b[K  render+format  10/10 files  2 s …');
  progress.end('render+format', 2_345);
  expect(writes.at(-1)).toBe('\r\u001b[K  render+format  2.35 s\n');
  expect(ticking()).toBe(false);
  progress.files!({ done: 11, total: 11, rendering: false });
  expect(writes.at(-1)).toBe('\r\u001b[K  render+format  2.35 s\n');
});

test('a stage that fails ends its line and stops the ticks (under --watch the process lives on)', async () => {
  const { progress, writes, at, ticking } = harness();
  const { buildOutputs } = await import('../../src/pipeline.js');
  await expect(buildOutputs({ spec: '/nonexistent/openapi.yaml', progress })).rejects.toThrow();
  expect(ticking()).toBe(false);
  expect(writes.at(-1)).toMatch(/^\r\u001b\[K {2}load +failed after \d+ ms\n$/);
  at(5_000);
  expect(writes.at(-1)).toMatch(/failed after/);
});

test('the pipeline counts every file it renders and formats, done never ahead of produced, to the last', async () => {
  const { buildOutputs } = await import('../../src/pipeline.js');
  const { EXAMPLES } = await import('../helpers.js');
  const { join } = await import('node:path');
  const counts: { done: number; total: number; rendering: boolean }[] = [];
  const { files } = await buildOutputs({ spec: join(EXAMPLES, 'petstore/openapi.json'), progress: { start() {}, end() {}, files: (count) => counts.push(count) } });
  expect(counts.at(-1)).toEqual({ done: files.length, total: files.length, rendering: false });
  for (const [index, count] of counts.entries()) {
    expect(count.done).toBeLessThanOrEqual(count.total);
    if (index > 0) expect(count.total).toBeGreaterThanOrEqual(counts[index - 1]!.total);
  }
});
