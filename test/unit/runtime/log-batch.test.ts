/** The default log destination (log-batch.ts): lines written a batch at a time, none lost at exit. */
import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from '../../helpers.js';
import { lineBatch } from '../../../src/runtime/server/generated/conventions/log-batch.js';

afterEach(() => void jest.useRealTimers());

function recorded(options = { flushMs: 25, batchBytes: 100 }) {
  const writes: string[] = [];
  return { writes, batch: lineBatch((bytes) => writes.push(bytes.toString()), options) };
}

test('lines wait for flushMs after the first of their batch, then go out in one write', () => {
  jest.useFakeTimers();
  const { writes, batch } = recorded();
  batch.write('a\n');
  jest.advanceTimersByTime(20);
  batch.write('b\n');
  expect(writes).toEqual([]);
  jest.advanceTimersByTime(5);
  expect(writes).toEqual(['a\nb\n']);
  batch.write('c\n');
  jest.advanceTimersByTime(24);
  expect(writes).toEqual(['a\nb\n']);
  jest.advanceTimersByTime(1);
  expect(writes).toEqual(['a\nb\n', 'c\n']);
});

test('a batch that reaches batchBytes goes out at once, and its timer with it', () => {
  jest.useFakeTimers();
  const { writes, batch } = recorded({ flushMs: 25, batchBytes: 10 });
  batch.write('12345\n');
  batch.write('67890\n');
  expect(writes).toEqual(['12345\n67890\n']);
  jest.advanceTimersByTime(100);
  expect(writes).toHaveLength(1);
});

test("flush hands the lines on now and calls pino's callback; take empties the batch without writing", () => {
  const { writes, batch } = recorded();
  const done = jest.fn();
  batch.write('a\n');
  batch.flush(done);
  expect(writes).toEqual(['a\n']);
  expect(done).toHaveBeenCalledTimes(1);
  batch.write('b\n');
  expect(batch.take().toString()).toBe('b\n');
  batch.flush();
  expect(writes).toEqual(['a\n']);
});

test('lines beyond ASCII keep their bytes; a line that would overflow the batch starts the next, one longer than any batch goes alone', () => {
  const { writes, batch } = recorded({ flushMs: 25, batchBytes: 10 });
  batch.write('é€👩\n');
  batch.flush();
  expect(writes).toEqual(['é€👩\n']);
  writes.length = 0;
  // Room is 10 + 16,384 bytes, and a line is given 3 bytes a UTF-16 unit: 9 waiting bytes and 5,462 units do not fit together.
  const first = 'aaaaaaaa\n';
  const near = 'x'.repeat(5_462);
  batch.write(first);
  batch.write(near);
  expect(writes).toEqual([first, near]);
  const long = 'y'.repeat(6_000);
  batch.write(long);
  expect(writes).toEqual([first, near, long]);
  batch.write('b\n');
  batch.flush();
  expect(writes).toEqual([first, near, long, 'b\n']);
});

test('a batch handed on is a copy of its bytes: the writer keeps what was logged, not the batch buffer, and later lines change nothing it holds', () => {
  const kept: Buffer[] = [];
  const batch = lineBatch((bytes) => kept.push(bytes), { flushMs: 25, batchBytes: 16_384 });
  for (let n = 0; n < 3; n++) {
    batch.write(`line ${n}\n`);
    batch.flush();
  }
  expect(kept.map(String)).toEqual(['line 0\n', 'line 1\n', 'line 2\n']);
  // 7 bytes each, in Node's shared pool: no batch holds an ArrayBuffer of its own the size of the batch buffer.
  expect(kept.every((bytes) => bytes.buffer.byteLength <= Buffer.poolSize)).toBe(true);
  batch.flush();
  expect(kept).toHaveLength(3);
});

// A child process runs the built modules: `npm test` builds them first (pretest).
const modules = join(ROOT, 'dist/runtime/server/generated/conventions');

test("the service's logger writes what waits before the process exits, and does not keep it alive", async () => {
  const script = `
    const { createLogger } = await import(${JSON.stringify(join(modules, 'logger.js'))});
    const { redactionOf } = await import(${JSON.stringify(join(modules, 'logging.js'))});
    const logger = createLogger(redactionOf([], {}), { env: {} });
    for (let n = 0; n < 3; n++) logger.info('line ' + n);
    if (process.argv[1] === 'exit') process.exit(3);`;
  for (const ending of ['exit', 'end']) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, ending], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(ending === 'exit' ? 3 : 0);
    expect(output.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['line 0', 'line 1', 'line 2']);
  }
});

test('writeAllSync writes all of a text to a full pipe, however little each write takes', async () => {
  const text = ('x'.repeat(99) + '\n').repeat(10_000);
  const script = `
    const { writeAllSync } = await import(${JSON.stringify(join(modules, 'log-batch.js'))});
    process.stdout; // made, it sets the pipe non-blocking
    writeAllSync(1, ('x'.repeat(99) + '\\n').repeat(10_000));
    process.exit(0);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let received = 0;
  for await (const chunk of child.stdout) {
    // Read slowly at first: the pipe fills, the child's writes are partial, then EAGAIN.
    if (received === 0) await sleep(300);
    received += (chunk as Buffer).length;
  }
  expect(received).toBe(text.length);
});
