/**
 * Runs a generated project's conformance suite with jest, as
 * `npm run test:conformance` does, and reads jest's JSON report.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
  tests: TestOutcome[];
}

/** The suite of `project`, its report written to `output`; `files` narrows it. */
export function runSuite(project: string, output: string, env: Record<string, string> = {}, files: string[] = []): Promise<SuiteReport> {
  const args = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '-c', 'test/conformance/jest.config.js', '--json', `--outputFile=${output}`, ...files];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    // A run that does not end (a server left open) fails here, not at jest's timeout.
    const timer = setTimeout(() => child.kill(), 100_000);
    child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal) return reject(new Error(`the suite did not end within 100 s:\n${stderr}`));
      try {
        const report = JSON.parse(readFileSync(output, 'utf8'));
        const tests = report.testResults.flatMap((file: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }) =>
          file.assertionResults.map((test) => ({ name: test.fullName, status: test.status, failure: test.failureMessages.join('\n') })),
        );
        resolve({ passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests, broken: report.numRuntimeErrorTestSuites, tests });
      } catch {
        reject(new Error(`the suite left no report:\n${stderr}`));
      }
    });
  });
}
