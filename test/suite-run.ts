/**
 * Runs a generated project's conformance suite for real (`npm run
 * test:conformance`, the same jest command) with jest's JSON report, and
 * reads that report.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFORMANCE_SEED } from './service.js';

export interface TestOutcome {
  name: string;
  status: string;
  failure: string;
}

export interface SuiteReport {
  passed: number;
  failed: number;
  skipped: number;
  /** Test files that could not run at all. */
  broken: number;
  /** Test files that ran. */
  files: number;
  tests: TestOutcome[];
}

/** The suite of `project`, with `env` only (and PATH, and the seed of its property-based checks); `files` narrows it to some test files. */
export function runSuite(project: string, env: Record<string, string> = {}, files: string[] = [], timeoutMs = 240_000): Promise<SuiteReport> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-report-'));
  const output = join(dir, 'report.json');
  const args = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '-c', 'test/conformance/jest.config.js', '--json', `--outputFile=${output}`, ...files];
  return new Promise<SuiteReport>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project, env: { PATH: process.env.PATH, CONFORMANCE_SEED, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    // A run that does not end (a server left open) fails here, not at jest's timeout (300 s). A bookshop
    // suite takes 7-17 s alone; beside another file's work on 2 cores, several times that.
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal) return reject(new Error(`the suite did not end within ${timeoutMs / 1000} s:\n${stderr}`));
      try {
        const report = JSON.parse(readFileSync(output, 'utf8'));
        const tests = report.testResults.flatMap((file: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }) =>
          file.assertionResults.map((test) => ({ name: test.fullName, status: test.status, failure: test.failureMessages.join('\n') })),
        );
        resolve({
          passed: report.numPassedTests,
          failed: report.numFailedTests,
          skipped: report.numPendingTests,
          broken: report.numRuntimeErrorTestSuites,
          files: report.numTotalTestSuites,
          tests,
        });
      } catch {
        reject(new Error(`the suite left no report:\n${stderr}`));
      }
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The failed tests, each with the first line of its failure. */
export const failures = (report: SuiteReport) => report.tests.filter((test) => test.status === 'failed').map((test) => `${test.name}\n    ${test.failure.split('\n')[0]}`);

/** The skipped tests' names (each ends with its reason). */
export const skipped = (report: SuiteReport) => report.tests.filter((test) => test.status === 'pending').map((test) => test.name);
