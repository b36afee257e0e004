/** The server's settings from the environment: defaults stricter than Node's, and a clear stop on a bad value. */
import { afterEach } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT } from '../../helpers.js';
import { integerFromEnv, timeoutsFromEnv } from '../../../src/runtime/server/generated/conventions/serve.js';

const NAMES = ['HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS', 'SHUTDOWN_GRACE_MS', 'MAX_CONNECTIONS', 'SPECFORGE_TEST_NUMBER'];
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of NAMES) if (saved[name] === undefined) delete process.env[name];
  else process.env[name] = saved[name];
});

test.each([
  { given: undefined, want: 7 },
  { given: '', want: 7 },
  { given: '0', want: 0 },
  { given: '1500', want: 1500 },
])('integerFromEnv: $given gives $want', ({ given, want }) => {
  if (given === undefined) delete process.env.SPECFORGE_TEST_NUMBER;
  else process.env.SPECFORGE_TEST_NUMBER = given;
  expect(integerFromEnv('SPECFORGE_TEST_NUMBER', 7)).toBe(want);
});

test.each(['-1', '1.5', 'ten', '1e3', '0x10', ' ', '99999999999999999999'])('integerFromEnv refuses %j, naming the variable', (given) => {
  process.env.SPECFORGE_TEST_NUMBER = given;
  expect(() => integerFromEnv('SPECFORGE_TEST_NUMBER', 7)).toThrow(/^SPECFORGE_TEST_NUMBER=.* is not a whole number of at least 0\.$/);
});

test('integerFromEnv holds a minimum', () => {
  process.env.SPECFORGE_TEST_NUMBER = '0';
  expect(() => integerFromEnv('SPECFORGE_TEST_NUMBER', 7, { min: 1 })).toThrow('at least 1');
});

test('timeouts default to 10 s for headers, 30 s per request, 5 s keep-alive, 10 s grace; no connection cap', () => {
  for (const name of NAMES) delete process.env[name];
  expect(timeoutsFromEnv()).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, shutdownGraceMs: 10_000, maxConnections: 0 });
});

test('MAX_CONNECTIONS caps the open connections; a cap that is no whole number is refused', () => {
  for (const name of NAMES) delete process.env[name];
  process.env.MAX_CONNECTIONS = '200';
  expect(timeoutsFromEnv().maxConnections).toBe(200);
  process.env.MAX_CONNECTIONS = 'many';
  expect(() => timeoutsFromEnv()).toThrow('MAX_CONNECTIONS=many is not a whole number of at least 0.');
  delete process.env.MAX_CONNECTIONS;
});

test('a headers timeout longer than the request timeout is refused: the headers are part of the request', () => {
  process.env.HEADERS_TIMEOUT_MS = '40000';
  expect(() => timeoutsFromEnv()).toThrow('HEADERS_TIMEOUT_MS (40000) must not exceed REQUEST_TIMEOUT_MS (30000)');
});

test("on SIGTERM the app's resources are released (createApp's Redis connection) once the server closed, then the exit is 0", async () => {
  const module = join(ROOT, 'dist/runtime/server/generated/conventions/serve.js');
  const script = `
    const { serve } = await import(${JSON.stringify(module)});
    const app = { callback: () => (_request, response) => response.end(), context: { release: async () => { await new Promise((r) => setTimeout(r, 50)); console.log('released'); } } };
    await serve(app, { port: 0, host: '127.0.0.1' });
    console.log('listening');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('listening') && !child.killed) child.kill('SIGTERM');
  });
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  // The stop is a log line (pino's JSON), between what the script printed.
  const lines = output.trim().split('\n').map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg: string }).msg : line));
  expect(lines).toEqual(['listening', 'SIGTERM: finishing requests in flight, then stopping.', 'released']);
});
