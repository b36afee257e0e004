/**
 * The command line: a thin layer over the pipeline. Exit codes a script can
 * rely on: 0 ok, 1 bad input, conflicts or stale output, 2 a bug of ours.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import yargs, { type Argv } from 'yargs';
import { diagnostic, SpecforgeError, type Diagnostic } from '../diagnostics.js';
import { serializeSpec } from '../openapi/serialize.js';
import { check, generate, lint, mergeSpec, recordedInputs, scaffoldDiff } from '../pipeline.js';
import { VERSION } from '../resources.js';
import { closest } from '../suggest.js';
import { writeAtomically } from '../write/disk.js';
import { outputFolder } from '../write/output-folder.js';
import {
  consoleOutput,
  countBySeverity,
  formatDuration,
  paint,
  printActions,
  printDiagnostics,
  printFindings,
  printOperationChanges,
  printStorageWarnings,
  printPackageNeeds,
  printScaffoldDrift,
  printLintReport,
  printLoadWarnings,
  printWarnings,
  progressOn,
  type Output,
} from './output.js';
import { watchAndRegenerate } from './watch.js';
import { FormatMemo } from '../format/memo.js';
import { keepWorkers } from '../threads.js';
import { CONFIG_FILE, discoverConfigFile, layered, pathsFrom, type ConfigFile } from './config-file.js';

export const EXIT = { ok: 0, userError: 1, internalError: 2 } as const;

interface Common {
  spec: string;
  refRoot: string | undefined;
  overlay: string | undefined;
  quiet: boolean;
  color: boolean | undefined;
  /** The inputs given as flags (or the spec argument), to repeat them in a command we advise. */
  given: Given;
}

/** What the command line named, before specforge.config.json fills the gaps. */
type Given = Partial<Pick<ConfigFile, 'spec' | 'out' | 'templates' | 'refRoot' | 'overlay' | 'lint'>>;

interface GenerateArgs extends Common {
  out: string;
  templates: string | undefined;
  dryRun: boolean;
  force: boolean;
  watch: boolean;
  lint: boolean;
  updatePackageJson: boolean;
}

interface CheckArgs extends GenerateArgs {
  full: boolean;
}

interface DiffScaffoldArgs extends GenerateArgs {
  file: string;
  accept: boolean;
}

interface LintArgs extends Common {
  format: 'text' | 'json';
  strict: boolean;
}

/** A mistake in the command line itself: reported with a pointer to --help, exit 1. */
class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  let flags: string[] = [];
  /** The command's flags, remembered as its options are declared, to suggest one for a typo. */
  const known = (y: Argv): Argv => ((flags = optionNames(y)), y);
  const parser = yargs(stdoutAsValue(argv))
    .scriptName('specforge')
    .usage('$0 <command> [spec] [options]\n\nGenerate a convention-conformant TypeScript service from an OpenAPI 3.x spec.')
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Print only errors and the final result' })
    .option('color', { type: 'boolean', describe: 'Colour the output (default: on a terminal, unless NO_COLOR is set)' })
    .command(
      'generate [spec]',
      'Merge the conventions into <spec> and generate every target into --out',
      (y) => known(outputOptions(specArgument(y))
        .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be written or deleted; write nothing' })
        .option('force', { type: 'boolean', default: false, describe: 'Overwrite generated files that were edited by hand, and files specforge did not write (each is backed up to <out>/.specforge/backup/ first)' })
        .option('watch', { alias: 'w', type: 'boolean', default: false, describe: 'Stay running and regenerate whenever the spec or a file it references changes' })
        .option('lint', { type: 'boolean', describe: 'Check the spec against the conventions first, stopping on errors (--no-lint skips it; default: on)' })
        .option('update-package-json', { type: 'boolean', default: false, describe: 'Add to your package.json (a scaffold) the dependencies, scripts and overrides this specforge needs and it lacks; nothing else changes' })),
      async (args) => {
        exitCode = await runGenerate(withConfig<GenerateArgs>(args, ['spec', 'out']));
      },
    )
    .command(
      'merge [spec]',
      'Write only the merged spec (the conventions applied), as YAML or JSON by the file extension',
      (y) => known(specArgument(y).option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'File to write: .yaml, .yml or .json; "-" for standard output' })),
      async (args) => {
        // --out here names the merged spec, not the generated project: only the spec comes from the config file.
        exitCode = await runMerge({ ...withConfig<Common>({ ...args, out: undefined }, ['spec']), out: args.out as string });
      },
    )
    .command(
      'lint [spec]',
      'Check <spec> against the conventions: exit 1 on errors (or, with --strict, on warnings too)',
      (y) =>
        known(
          specArgument(y)
            .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text for people, json for tools' })
            .option('strict', { type: 'boolean', default: false, describe: 'Treat warnings as errors' }),
        ),
      async (args) => {
        exitCode = await runLint(withConfig<LintArgs>(args, ['spec']));
      },
    )
    .command(
      'check [spec]',
      'Exit 1, listing each file, when --out is stale, hand-edited, missing files or has orphans (regenerated in memory unless the manifest\'s fingerprints show nothing changed)',
      (y) =>
        known(
          outputOptions(specArgument(y)).option('full', {
            type: 'boolean',
            default: false,
            describe: 'Regenerate in memory and compare every file, even where the manifest\'s fingerprints (inputs, settings, every output\'s hash) show nothing changed',
          }),
        ),
      async (args) => {
        exitCode = await runCheck(withConfig<CheckArgs>(args, ['spec', 'out']));
      },
    )
    .command(
      'diff-scaffold <file> [spec]',
      'Print how a scaffold (yours, kept as it is) would now be written: a unified diff from what specforge last recorded for it to its fresh rendering',
      (y) =>
        known(
          outputOptions(specArgument(y))
            .positional('file', { type: 'string', describe: 'The scaffold, relative to --out as `generate` lists it (e.g. src/store/index.ts), or a path into --out' })
            .option('accept', { type: 'boolean', default: false, describe: 'Record the fresh rendering as the scaffold\'s origin, once you have merged what you want of it: its drift is no longer reported' }),
        ),
      async (args) => {
        exitCode = await runDiffScaffold(withConfig<DiffScaffoldArgs>(args, ['spec', 'out']));
      },
    )
    .demandCommand(1, 'Name a command: generate, lint, check, merge or diff-scaffold.')
    .strict()
    .version(VERSION)
    .help()
    .alias('help', 'h')
    .epilogue(
      [
        'Options by command (`specforge <command> --help` explains each):',
        '  generate  [--out <dir>] [--templates <dir>] [--dry-run] [--force] [--watch] [--no-lint] [--update-package-json]',
        '  lint      [--format text|json] [--strict]',
        '  check     [--out <dir>] [--templates <dir>] [--full]',
        '  merge     --out <file|->',
        '  diff-scaffold <file>  [--out <dir>] [--templates <dir>] [--accept]',
        '  all       [--ref-root <dir>] [--overlay <file>] [--quiet] [--color|--no-color]',
        '',
        'Exit codes: 0 success; 1 invalid input, refused overwrite or stale output; 2 internal error.',
        `Inputs and options may live in ${CONFIG_FILE}, found in this folder or above it; flags override it.`,
        'The conventions are configured in the spec, under `x-specforge` (see the README).',
      ].join('\n'),
    )
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    // Throwing stops yargs before any command runs with the arguments it rejected.
    .fail((message, error) => {
      throw error ?? new UsageError(withSuggestions(message, argv, flags.length > 0 ? flags : optionNames(parser)));
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    const output = consoleOutput({});
    if (error instanceof SpecforgeError) {
      printDiagnostics(output, error.diagnostics);
      return EXIT.userError;
    }
    if (!(error instanceof UsageError)) return reportUnexpected(output, error);
    output.err(`specforge: ${error.message}`);
    output.err('Run `specforge --help` for the commands and options.');
    return EXIT.userError;
  }
  return exitCode;
}

/** yargs reads a lone `-` as no value at all; `--out -` means standard output, so keep it attached. */
function stdoutAsValue(argv: string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const isOut = argv[i] === '--out' || argv[i] === '-o';
    if (isOut && argv[i + 1] === '-') {
      result.push('--out=-');
      i++;
    } else {
      result.push(argv[i]!);
    }
  }
  return result;
}

/**
 * The command's inputs: each from its flag (or the spec argument), else from
 * specforge.config.json, else the default; a required one given nowhere is a usage error.
 */
function withConfig<T extends Common>(args: Record<string, unknown>, required: ('spec' | 'out')[]): T {
  const given: Given = {};
  for (const key of ['spec', 'out', 'templates', 'refRoot', 'overlay', 'lint'] as const) {
    if (args[key] !== undefined) (given as Record<string, unknown>)[key] = args[key];
  }
  const file = discoverConfigFile(process.cwd());
  const settings = layered(given, file && pathsFrom(process.cwd(), file));
  for (const key of required) {
    if (settings[key] !== undefined) continue;
    const how = key === 'spec' ? 'name the spec after the command' : `pass --${key}`;
    throw new UsageError(`Missing required argument: ${key} (${how}, or set "${key}" in ${CONFIG_FILE})`);
  }
  return { ...args, ...settings, lint: settings.lint ?? true, given } as unknown as T;
}

const COMMANDS = ['generate', 'lint', 'check', 'merge', 'diff-scaffold'];

/** Every option name (and alias) yargs knows at this point; `getOptions` is public in yargs but missing from its types. */
function optionNames(y: unknown): string[] {
  return Object.keys((y as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
}

/** yargs' complaint about the command line, with the command or flag a typo most likely meant. */
function withSuggestions(message: string, argv: string[], flags: string[]): string {
  const command = argv.find((arg) => !arg.startsWith('-'));
  // Only the first word can be a command; after one yargs knew, the complaint is about something else.
  if (command !== undefined && command === argv[0] && !COMMANDS.includes(command)) {
    const guess = closest(command, COMMANDS);
    return `Unknown command "${command}".${guess ? ` Did you mean ${guess}?` : ''}`;
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (!unknown) return message;
  // yargs lists `--dry-runn` twice, as dry-runn and dryRunn: the first spelling is the one typed.
  const names = unknown[1]!.split(', ').filter((name) => !/[A-Z]/.test(name));
  const candidates = flags.filter((flag) => flag.length > 1 && !/[A-Z]/.test(flag));
  const dashed = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
  const suggestions = names.flatMap((name) => {
    const guess = closest(name, candidates);
    return guess ? [`${dashed(name)}: did you mean --${guess}?`] : [];
  });
  const listed = `Unknown option${names.length === 1 ? '' : 's'}: ${names.map(dashed).join(', ')}`;
  return [listed, ...suggestions].join('\n');
}

function specArgument(y: Argv): Argv {
  return y
    .positional('spec', { type: 'string', describe: `Path to the OpenAPI 3.0/3.1 spec (YAML or JSON); default: "spec" in ${CONFIG_FILE}` })
    .option('ref-root', {
      type: 'string',
      describe: "A folder whose files $refs may also reach (by default only the spec's folder tree, or its git repository)",
    })
    .option('overlay', {
      type: 'string',
      describe: 'An OpenAPI Overlay 1.0 file (one) whose actions patch the spec before it is checked, e.g. to fix a fault in a spec you do not own',
    });
}

function outputOptions(y: Argv): Argv {
  return y
    .option('out', { alias: 'o', type: 'string', describe: `Output directory of the generated project; default: "out" in ${CONFIG_FILE}` })
    .option('templates', { type: 'string', describe: 'Directory of templates that override the built-in ones by relative path (e.g. types/types.ts.hbs)' });
}

/** What every command reads: the spec, the folder its `$ref`s may also reach, the overlay. */
function inputsOf(args: Common): { spec: string; refRoot: string | undefined; overlay: string | undefined } {
  return { spec: args.spec, refRoot: args.refRoot, overlay: args.overlay };
}

async function guarded(output: Output, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SpecforgeError) {
      printDiagnostics(output, error.diagnostics);
      return EXIT.userError;
    }
    return reportUnexpected(output, error);
  }
}

function reportUnexpected(output: Output, error: unknown): number {
  output.err(`specforge: internal error: ${(error as Error)?.stack ?? String(error)}`);
  output.err('This is a bug in specforge. Please report it with the spec that caused it.');
  return EXIT.internalError;
}

async function runGenerate(args: GenerateArgs): Promise<number> {
  const output = consoleOutput(args);
  // Each run under --watch formats only what the last one did not.
  const formatMemo = args.watch ? new FormatMemo() : undefined;
  const once = () =>
    guarded(output, async () => {
      const began = performance.now();
      const result = await generate({
        formatMemo,
        ...inputsOf(args),
        outDir: args.out,
        templates: args.templates,
        force: args.force,
        dryRun: args.dryRun,
        lint: args.lint,
        updatePackageJson: args.updatePackageJson,
        progress: progressOn(output),
      });
      printLoadWarnings(output, result.loadWarnings);
      printWarnings(output, result.warnings, [args.spec, ...(args.overlay === undefined ? [] : ['--overlay', args.overlay])].map(shellWord).join(' '));
      const took = formatDuration(performance.now() - began);
      if (result.upToDate) output.out(`Up to date: ${args.out} already matches ${args.spec} (${took}).`);
      else {
        printActions(output, result.actions, args.dryRun);
        printOperationChanges(output, result.operations);
        printStorageWarnings(output, result.storageWarnings ?? []);
        printPackageNeeds(output, result.packageJson);
      }
      printScaffoldDrift(output, result.drift, (path) => diffScaffoldCommand(args.given, path));
      if (!result.upToDate && !output.quiet) output.err(paint(output, '2', `  done in ${took}`));
      lastInputs = result.inputs;
      // Only a dry run comes back with refusals: the plan first, then why a real run would stop.
      if (result.refusals.length > 0) throw new SpecforgeError(result.refusals);
      return EXIT.ok;
    });
  // A refused --out ends even --watch at once: no run could ever write there.
  const refused = await guarded(output, async () => (outputFolder(args.out, args.spec), EXIT.ok));
  if (refused !== EXIT.ok) return refused;
  // Until a run succeeds, the inputs the last generation recorded (a broken first run still watches them).
  let lastInputs = recordedInputs(inputsOf(args), args.out);
  // Each run under --watch finds the worker threads of the last one loaded and waiting.
  const endWorkers = args.watch ? keepWorkers() : undefined;
  const code = await once();
  if (!args.watch) return code;
  await watchAndRegenerate({ inputs: () => lastInputs, run: once, output });
  await endWorkers?.();
  return EXIT.ok;
}

async function runMerge(args: Common & { out: string }): Promise<number> {
  const output = consoleOutput(args);
  return guarded(output, async () => {
    const refused = mergeTargetProblem(args.out);
    if (refused) {
      throw new SpecforgeError([
        diagnostic('OUTPUT_TARGET_REFUSED', `--out ${JSON.stringify(args.out)} ${refused}`, { file: args.spec }, { hint: 'Name the file to write, e.g. --out openapi.merged.yaml, or - for standard output.' }),
      ]);
    }
    const { document, sources, loadWarnings } = await mergeSpec({ ...inputsOf(args), progress: progressOn(output) });
    printLoadWarnings(output, loadWarnings);
    if (args.out !== '-' && sources.all.some((file) => file.path === resolve(args.out))) {
      throw new SpecforgeError([
        diagnostic('OUTPUT_NOT_OURS', `--out ${args.out} is part of the spec; refusing to overwrite it`, { file: args.out }, {
          hint: 'Write the merged spec to another file, e.g. openapi.merged.yaml.',
        }),
      ]);
    }
    const text = serializeSpec(document, args.out.endsWith('.json') ? 'json' : 'yaml');
    if (args.out === '-') process.stdout.write(text);
    else {
      writeAtomically(args.out, text);
      output.out(`Wrote ${args.out}`);
    }
    return EXIT.ok;
  });
}

/** The `specforge generate` that repeats what this command line named (the config file supplies the rest). */
function generateCommand(given: Given): string {
  const words = ['specforge', 'generate'];
  if (given.spec !== undefined) words.push(shellWord(given.spec));
  if (given.out !== undefined) words.push('--out', shellWord(given.out));
  if (given.templates !== undefined) words.push('--templates', shellWord(given.templates));
  if (given.overlay !== undefined) words.push('--overlay', shellWord(given.overlay));
  return words.join(' ');
}

/** The `specforge diff-scaffold` for one scaffold, with the inputs this command line named (the config file supplies the rest). */
function diffScaffoldCommand(given: Given, path: string): string {
  return generateCommand(given).replace(/^specforge generate/, `specforge diff-scaffold ${shellWord(path)}`);
}

/** A path as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Why the merged spec may not be written to --out, if it may not: it names no file. */
function mergeTargetProblem(out: string): string | undefined {
  if (out.trim() === '') return 'is empty';
  if (existsSync(out) && statSync(out).isDirectory()) return 'is a folder';
  return undefined;
}

async function runLint(args: LintArgs): Promise<number> {
  const output = consoleOutput(args);
  const asJson = (diagnostics: Diagnostic[]) => {
    const counts = countBySeverity(diagnostics);
    process.stdout.write(JSON.stringify({ diagnostics, summary: counts }, null, 2) + '\n');
    return counts.errors > 0 ? EXIT.userError : EXIT.ok;
  };
  try {
    const found = await lint({ ...inputsOf(args), progress: args.format === 'json' ? undefined : progressOn(output) });
    const diagnostics = args.strict ? found.map((d) => ({ ...d, severity: 'error' as const })) : found;
    if (args.format === 'json') return asJson(diagnostics);
    // --quiet: errors only, and the counts of all.
    printLintReport(output, args.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics, countBySeverity(diagnostics));
    return diagnostics.some((d) => d.severity === 'error') ? EXIT.userError : EXIT.ok;
  } catch (error) {
    if (!(error instanceof SpecforgeError)) return reportUnexpected(output, error);
    if (args.format === 'json') return asJson(error.diagnostics);
    printDiagnostics(output, error.diagnostics);
    return EXIT.userError;
  }
}

async function runCheck(args: CheckArgs): Promise<number> {
  const output = consoleOutput(args);
  return guarded(output, async () => {
    const result = await check({ ...inputsOf(args), outDir: args.out, templates: args.templates, full: args.full, progress: progressOn(output) });
    const { findings, loadWarnings } = result;
    printLoadWarnings(output, loadWarnings);
    // Scaffolds are the user's: their drift is information, whatever the result.
    const drift = () => printScaffoldDrift(output, result.drift, (path) => diffScaffoldCommand(args.given, path));
    if (findings.length === 0) {
      const how = result.byFingerprints ? ' (by the manifest\'s fingerprints; --full regenerates to compare)' : '';
      output.out(`${args.out} is up to date with ${args.spec}${how}.`);
      drift();
      return EXIT.ok;
    }
    output.out(`${args.out} differs from what ${args.spec} generates:`);
    printFindings(output, findings, generateCommand(args.given));
    drift();
    return EXIT.userError;
  });
}

async function runDiffScaffold(args: DiffScaffoldArgs): Promise<number> {
  const output = consoleOutput(args);
  return guarded(output, async () => {
    const result = await scaffoldDiff({ ...inputsOf(args), outDir: args.out, templates: args.templates, scaffold: args.file, accept: args.accept });
    printLoadWarnings(output, result.loadWarnings);
    const command = diffScaffoldCommand(args.given, result.path);
    if (result.diff === '') output.err(`${result.path}: the spec renders it as specforge last recorded it; nothing to merge.`);
    else if (result.accepted) output.err(`${result.path}: its fresh rendering is recorded as its origin; its drift is no longer reported.`);
    else {
      // The diff alone on stdout, for a pipe into patch; how to use it on stderr.
      process.stdout.write(result.diff);
      output.err(`Apply it to your file with \`${command} | patch -p1 -d ${shellWord(args.out)}\` (or merge it by hand);`);
      output.err(`then \`${command} --accept\` records this rendering, and the drift is no longer reported.`);
    }
    return EXIT.ok;
  });
}
