/**
 * The pipeline:
 *
 *   load ─▶ lint ─▶ conventions ─▶ model ─▶ render ─▶ format ─▶ write
 *
 * `generate` runs all of it; `check` skips lint and stops before write to
 * compare; `merge` stops after conventions; `lint` after lint.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { applyConventions, type ConventionFragments, type MergedSpec } from './conventions/index.js';
import { validateConfig } from './config.js';
import { diagnostic, SpecforgeError, type Diagnostic } from './diagnostics.js';
import { lintSpec } from './lint/index.js';
import type { OpenApiDocument } from './openapi/document.js';
import { byKey, byLocation, byPath } from './order.js';
import { createFormatter } from './format/index.js';
import type { FormatMemo } from './format/memo.js';
import { loadSpec, placeAll, type LoadedSpec } from './load/index.js';
import { mayReference, refRootsOf } from './load/ref-root.js';
import type { SourceSet } from './load/sources.js';
import { buildModel, type ApiModel } from './model/index.js';
import { render, type FileCount, type OutputFile, type Target } from './render/index.js';
import { clientTarget } from './render/targets/client.js';
import { conformanceTarget } from './render/targets/conformance/index.js';
import { projectTarget } from './render/targets/project.js';
import { resourceTypesTarget } from './render/targets/resource-types.js';
import { serverTarget } from './render/targets/server/index.js';
import { handlerFileOf } from './render/targets/server/view.js';
import { specTarget } from './render/targets/spec.js';
import { startDocumentWorker } from './render/targets/document-work.js';
import { typesTarget } from './render/targets/types.js';
import { loadFragments, loadResources, VERSION, type Resources } from './resources.js';
import { applyPlan, readDiskState, readManifest, readStorageModel, readTexts, recordOrigin, specFileHash } from './write/disk.js';
import { migrationBetween } from './render/targets/server/migrations.js';
import type { StorageModel } from './render/targets/server/storage.js';
import { parseStorageModel, STORAGE_PATH } from './write/storage-record.js';
import { outputFolder } from './write/output-folder.js';
import { isInside, outsideOutProblem, pathProblem } from './write/paths.js';
import { sha256 } from './hash.js';
import { MANIFEST_PATH, originPath, serializeManifest, type Manifest, type OperationRecord } from './write/manifest.js';
import { PACKAGE_JSON, packageNeeds, readPackageJson, updatePackageJson, type PackageNeed } from './write/package-json.js';
import { driftedScaffolds, findDrift, originsToRecover, pathsToRead, planWrite, type Action, type Finding, type Plan, type PlanInput } from './write/plan.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * In rendering order, which matters for large specs (the files come out
 * sorted whatever it is): the targets that hand work to worker threads come
 * first, so the workers work while the others render here. The types are
 * printed on one; the server's request validators compile on another
 * (seconds on GitHub's spec). The merged spec is serialized last.
 */
export const TARGETS: readonly Target[] = [typesTarget, serverTarget, resourceTypesTarget, projectTarget, clientTarget, conformanceTarget, specTarget];

/** Told when each stage starts and ends, for progress output; `files` within render and format. */
export interface Progress {
  start(stage: string): void;
  end(stage: string, milliseconds: number): void;
  /** The stage threw: its line ends there (a live line stops redrawing). */
  fail?(stage: string, milliseconds: number): void;
  files?(count: FileCount): void;
}

const SILENT: Progress = { start() {}, end() {} };

async function stage<T>(progress: Progress, name: string, run: () => T | Promise<T>): Promise<T> {
  progress.start(name);
  const began = performance.now();
  let result: T;
  try {
    result = await run();
  } catch (error) {
    progress.fail?.(name, performance.now() - began);
    throw error;
  }
  progress.end(name, performance.now() - began);
  return result;
}

export interface PipelineOptions {
  spec: string;
  templates?: string;
  progress?: Progress;
  /** Run the lint rules first (stop on errors, report warnings); on unless false. */
  lint?: boolean;
  /** A folder `$ref`s may reach besides the spec's own tree or repository. */
  refRoot?: string;
  /** An OpenAPI Overlay file applied to the spec before it is checked. */
  overlay?: string;
  /** The storage model the output's migrations were written for: the next migration starts from it. */
  previousStorage?: StorageModel | undefined;
  /** What earlier runs of this process formatted (`--watch`), so they are not formatted again. */
  formatMemo?: FormatMemo | undefined;
}

export interface Outputs {
  files: OutputFile[];
  sources: SourceSet;
  resources: Resources;
  warnings: LintWarnings;
  /** Every operation, with the handler file that implements it. */
  operations: Record<string, OperationRecord>;
  /** Warnings from loading the spec (an overlay target that selects nothing). */
  loadWarnings: Diagnostic[];
}

/** Lint warnings a run went on past: how many, and the first few, placed in their files. */
export interface LintWarnings {
  total: number;
  first: Diagnostic[];
}

const WARNINGS_SHOWN = 5;

/** Lint only: load (and validate), then the rules; diagnostics in file order, the load's warnings among them. */
export async function lint(options: PipelineOptions): Promise<Diagnostic[]> {
  const progress = options.progress ?? SILENT;
  const loaded = await stage(progress, 'load', () => loadSpec(options.spec, options));
  const { document, sources, warnings } = loaded;
  return onceValid(loaded, () =>
    stage(progress, 'lint', () => [...warnings, ...placeAll(sources, lintWithValidSettings(document, sources, loadFragments()))].sort(byLocation)),
  );
}

/** Lint as a gate: errors stop the run (all placed, in file order); warnings let it go on. */
function lintGate(document: OpenApiDocument, sources: SourceSet, fragments: ConventionFragments): LintWarnings {
  const findings = lintWithValidSettings(document, sources, fragments);
  const errors = findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) throw new SpecforgeError(placeAll(sources, errors).sort(byLocation));
  // Only the warnings shown are placed: placing thousands (GitHub's spec) costs a pass over 13 MB.
  return { total: findings.length, first: placeAll(sources, findings.slice(0, WARNINGS_SHOWN)) };
}

/** The rules read their settings from `x-specforge`: settings that are wrong stop the run first. */
function lintWithValidSettings(document: OpenApiDocument, sources: SourceSet, fragments: ConventionFragments): Diagnostic[] {
  const problems = validateConfig(document);
  if (problems.length > 0) throw new SpecforgeError(placeAll(sources, problems));
  return lintSpec(document, fragments);
}

/** Merged spec only: load and conventions. */
export async function mergeSpec(options: PipelineOptions): Promise<MergedSpec & { sources: SourceSet; loadWarnings: Diagnostic[] }> {
  const progress = options.progress ?? SILENT;
  const resources = loadResources(options.templates);
  const loaded = await stage(progress, 'load', () => loadSpec(options.spec, options));
  const { document, sources, warnings } = loaded;
  return onceValid(loaded, async () => {
    const merged = await stage(progress, 'conventions', () => withDiagnosticsPlaced(sources, () => applyConventions(document, resources.fragments)));
    return { ...merged, sources, loadWarnings: warnings };
  });
}

/** Every output file, formatted, in memory. */
export async function buildOutputs(options: PipelineOptions, resources = loadResources(options.templates)): Promise<Outputs> {
  const progress = options.progress ?? SILENT;
  const formatter = createFormatter({ threads: formatThreads(options.spec), memo: options.formatMemo });
  const endDocumentWorker = startDocumentWorker();
  let completed = false;
  try {
    const loaded = await stage(progress, 'load', () => loadSpec(options.spec, options));
    const { document: spec, sources, warnings: loadWarnings } = loaded;
    const outputs = await onceValid(loaded, async () => {
      const warnings = options.lint === false ? { total: 0, first: [] } : await stage(progress, 'lint', () => lintGate(spec, sources, resources.fragments));
      const { document, config } = await stage(progress, 'conventions', () =>
        withDiagnosticsPlaced(sources, () => applyConventions(spec, resources.fragments)),
      );
      const model = await stage(progress, 'model', () => buildModel(document, config));
      const files = await stage(progress, 'render+format', () =>
        withSpecPointersPlaced(sources, () => render({
          document,
          model,
          templates: resources.templates,
          runtime: resources.runtime,
          targets: TARGETS,
          specName: basename(sources.root),
          previousStorage: options.previousStorage,
          finish: formatter.format,
          ...(progress.files ? { onFiles: progress.files } : {}),
        })),
      );
      return { files, sources, resources, warnings, operations: operationRecords(model), loadWarnings };
    });
    completed = true;
    return outputs;
  } finally {
    endDocumentWorker();
    await formatter.close({ completed });
  }
}

function operationRecords(model: ApiModel): Record<string, OperationRecord> {
  const entries = model.operations.map((operation): [string, OperationRecord] => [
    operation.operationId,
    { method: operation.httpMethod, path: operation.path, handler: handlerFileOf(model, operation) },
  ]);
  return Object.fromEntries(entries.sort(byKey));
}

/** Worker threads pay off for large specs only (their output is megabytes); small ones format in this thread. */
function formatThreads(spec: string): number {
  const large = existsSync(spec) && statSync(spec).size > 1_000_000;
  return large ? Math.min(availableParallelism(), 4) : 1;
}

/**
 * Runs the stages after load while validation finishes on another thread.
 * An invalid spec's problems win over whatever a later stage made of it, and
 * nothing is returned (so nothing written) before validation has passed. The
 * load's warnings go with a later stage's problems (as with validation's).
 */
async function onceValid<T>({ validated, warnings }: Pick<LoadedSpec, 'validated' | 'warnings'>, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await validated;
    throw error instanceof SpecforgeError && warnings.length > 0 ? new SpecforgeError([...warnings, ...error.diagnostics]) : error;
  }
  await validated;
  return result;
}

/** Problems found in later stages carry pointers into the bundled spec: place them in its files. */
function withDiagnosticsPlaced<T>(sources: SourceSet, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SpecforgeError) throw new SpecforgeError(placeAll(sources, error.diagnostics));
    throw error;
  }
}

/**
 * Render's diagnostics that point into the spec (a schema ajv refuses) placed
 * in its files; the others (a template's) keep the file they name.
 */
async function withSpecPointersPlaced<T>(sources: SourceSet, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof SpecforgeError)) throw error;
    throw new SpecforgeError(error.diagnostics.map((problem) => (problem.pointer !== undefined && problem.file === undefined ? placeAll(sources, [problem])[0]! : problem)));
  }
}

export interface GenerateOptions extends PipelineOptions {
  outDir: string;
  force?: boolean;
  dryRun?: boolean;
  /** Add to the scaffold package.json the keys this specforge needs and it lacks. */
  updatePackageJson?: boolean;
}

/** An operation the spec gained or lost since the last generation. */
export interface OperationChange extends OperationRecord {
  operationId: string;
}

export interface GenerateResult {
  actions: Action[];
  /** Operations to implement in, or remove from, the user's handler files. */
  operations: { added: OperationChange[]; removed: OperationChange[] };
  /** Nothing to do: inputs and outputs are as the manifest recorded them. */
  upToDate: boolean;
  /** Every file the spec is made of, for --watch. */
  inputs: string[];
  /** Lint warnings found on the way. */
  warnings: LintWarnings;
  /** Warnings from loading the spec (an overlay target that selects nothing). */
  loadWarnings: Diagnostic[];
  /** What the kept package.json lacks, and whether this run added it (--update-package-json). */
  packageJson: PackageJsonResult;
  /** Why the run would not write (hand-edited files, templates left out): a --dry-run reports them after its plan. */
  refusals: Diagnostic[];
  /** Scaffolds whose latest rendering differs from their origin (`specforge diff-scaffold` shows how). */
  drift: string[];
  /** The steps of this run's migration written commented out (a drop, a retype): the user decides. */
  storageWarnings?: string[];
}

export interface PackageJsonResult {
  needs: PackageNeed[];
  updated: boolean;
}

const NO_PACKAGE_NEEDS: PackageJsonResult = { needs: [], updated: false };

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const outDir = outputFolder(options.outDir, options.spec);
  const previous = readManifest(outDir);
  const revert = options.force ? [] : templatesLeftOut(previous, options, 'generate');
  // Refused at once, before the pipeline runs; a dry run goes on to show what the run would do.
  if (revert.length > 0 && !options.dryRun) throw new SpecforgeError(revert);
  const resources = loadResources(options.templates);
  const templates = templatesRecord(outDir, options.templates);
  // --update-package-json reads the scaffold it would write, so it always renders.
  const settled = !options.force && !options.updatePackageJson && revert.length === 0 && previous !== undefined;
  if (settled && isUpToDate({ ...options, outDir, previous, settings: resources.fingerprint, templates })) {
    const inputs = referableInputs(options, previous).map((input) => input.file);
    return {
      drift: recordedDrift(outDir, previous),
      actions: [],
      operations: { added: [], removed: [] },
      upToDate: true,
      inputs,
      warnings: { total: 0, first: [] },
      loadWarnings: [],
      packageJson: NO_PACKAGE_NEEDS,
      refusals: [],
    };
  }
  const previousStorage = readStorageModel(outDir);
  const { files, sources, warnings, operations, loadWarnings } = await buildOutputs({ ...options, previousStorage }, resources);
  const progress = options.progress ?? SILENT;
  return stage(progress, 'write', async () => {
    const disk = readDiskState(outDir, pathsToRead(files, previous));
    const plan = planWrite(planInput({ files, previous, disk, force: options.force === true, outDir }, options.outDir));
    const refusals = [...revert, ...plan.conflicts];
    if (refusals.length > 0 && !options.dryRun) throw new SpecforgeError(refusals);
    if (!options.dryRun) await applyPlan(outDir, plan, manifestFor({ sources, resources, templates, files: plan.files, operations }));
    const packageJson = keptPackageJson(outDir, plan, options);
    const changes = operationChanges(previous?.operations, operations);
    const inputs = sources.all.map((file) => file.path);
    const drift = driftedScaffolds(plan.files, disk);
    const storageWarnings = migrationWarnings(previousStorage, files);
    return { actions: plan.actions, operations: changes, upToDate: false, inputs, warnings, loadWarnings, packageJson, refusals, drift, storageWarnings };
  });
}

/** The plan's input, with the text of each scaffold that is its own origin (read here: the plan is pure). `shownOut` names --out in messages. */
function planInput(input: Omit<PlanInput, 'untouched'>, shownOut: string): PlanInput {
  const untouched = readTexts(input.outDir, originsToRecover(input.files, input.previous, input.disk));
  return { ...input, outDir: shownOut, untouched };
}

/** When the user's package.json was kept: what it lacks of the one this specforge writes, added if asked. */
function keptPackageJson(outDir: string, plan: Plan, options: GenerateOptions): PackageJsonResult {
  const action = plan.actions.find((candidate) => candidate.path === PACKAGE_JSON);
  const existing = action?.change === 'keep' ? readPackageJson(outDir) : undefined;
  if (action?.contents === undefined || existing === undefined) return NO_PACKAGE_NEEDS;
  const needs = packageNeeds(action.contents, existing);
  const update = options.updatePackageJson === true && !options.dryRun && needs.length > 0;
  if (update) updatePackageJson(outDir, existing, needs);
  return { needs, updated: update };
}

/** The manifest's record of a --templates folder: relative to --out, `/`-separated; none where no portable path leads there (another drive). */
function templatesRecord(outDir: string, templates: string | undefined): string | undefined {
  if (templates === undefined) return undefined;
  const way = relative(outDir, realpathSync(templates)).split(sep).join('/');
  return pathProblem(way, { upward: true }) === undefined ? way : undefined;
}

const TEMPLATES_LEFT_OUT = { generate: 'run would revert', check: 'check would report', 'diff-scaffold': 'diff would show the built-in rendering of' } as const;

/**
 * The last generation used --templates and this run names none: it would put
 * the built-in output back over what the templates customise. `check` has no
 * --force, so its advice is only to name the templates.
 */
function templatesLeftOut(previous: Manifest | undefined, options: GenerateOptions, command: 'generate' | 'check' | 'diff-scaffold'): Diagnostic[] {
  if (previous?.templates === undefined || options.templates !== undefined) return [];
  const folder = relative(process.cwd(), resolve(options.outDir, previous.templates)) || '.';
  const how = `Pass --templates ${folder} (or set "templates" in specforge.config.json)`;
  const message =
    `${options.outDir} was generated with the templates in ${folder} (so its manifest records); ` +
    `without --templates this ${TEMPLATES_LEFT_OUT[command]} every file they customise`;
  return [
    diagnostic('TEMPLATES_NOT_GIVEN', message, { file: join(options.outDir, MANIFEST_PATH) }, {
      hint: command === 'generate' ? `${how}; or pass --force to go back to the built-in templates.` : `${how}.`,
    }),
  ];
}

/** The spec's files as the output's manifest last recorded them (at least the root, and the overlay), for --watch. */
export function recordedInputs(options: InputOptions, outDir: string): string[] {
  const given = [options.spec, ...(options.overlay === undefined ? [] : [options.overlay])].map((file) => resolve(file));
  let recorded: string[] = [];
  try {
    const manifest = readManifest(outputFolder(outDir, options.spec));
    recorded = manifest ? referableInputs(options, manifest).map((input) => input.file) : [];
  } catch {
    // an unreadable manifest is reported by the run itself
  }
  return [...new Set([...given, ...recorded])];
}

export interface CheckOptions extends GenerateOptions {
  /** Regenerate and compare every file even where the manifest's fingerprints say nothing changed. */
  full?: boolean;
}

export interface CheckResult {
  findings: Finding[];
  /** Decided by the manifest's fingerprints (inputs, settings, every output's hash), without regenerating. */
  byFingerprints: boolean;
  /** Scaffolds whose rendering differs from their origin: information, not a failure (they are the user's). */
  drift: string[];
  /** Warnings from loading the spec (an overlay target that selects nothing). */
  loadWarnings: Diagnostic[];
}

/**
 * Lists every difference between what is on disk and what the spec
 * generates. Where the manifest is intact and its fingerprints match (the
 * same inputs, settings and templates, every output as recorded), nothing
 * can differ and nothing is regenerated; otherwise (or with `full`) the
 * output is regenerated in memory and compared file by file.
 */
export async function check(options: CheckOptions): Promise<CheckResult> {
  const outDir = outputFolder(options.outDir, options.spec);
  const previous = readManifest(outDir);
  const revert = templatesLeftOut(previous, options, 'check');
  if (revert.length > 0) throw new SpecforgeError(revert);
  if (!options.full && previous !== undefined && fingerprintsMatch(options, outDir, previous))
    return { findings: [], byFingerprints: true, loadWarnings: [], drift: recordedDrift(outDir, previous) };
  // Drift only: the rules were applied when the output was generated.
  const { files, sources, resources, operations, loadWarnings } = await buildOutputs({ ...options, lint: false, previousStorage: readStorageModel(outDir) });
  const disk = readDiskState(outDir, [...pathsToRead(files, previous), MANIFEST_PATH]);
  const expected = planWrite(planInput({ files, previous, disk, force: false, outDir }, options.outDir));
  const findings = [...findDrift({ files, previous, disk }), ...expected.origins.map(originFinding)].sort(byPath);
  const manifest = manifestFor({ sources, resources, templates: templatesRecord(outDir, options.templates), files: expected.files, operations });
  if (previous === undefined) findings.push({ path: MANIFEST_PATH, problem: 'missing' });
  else if (disk.get(MANIFEST_PATH) !== sha256(serializeManifest(manifest))) findings.push({ path: MANIFEST_PATH, problem: 'stale' });
  return { findings, byFingerprints: false, loadWarnings, drift: driftedScaffolds(expected.files, disk) };
}

/** The manifest as specforge wrote it, and everything it records unchanged: a regeneration would match. */
function fingerprintsMatch(options: CheckOptions, outDir: string, previous: Manifest): boolean {
  if (readDiskState(outDir, [MANIFEST_PATH]).get(MANIFEST_PATH) !== sha256(serializeManifest(previous))) return false;
  const settings = loadResources(options.templates).fingerprint;
  return isUpToDate({ ...options, outDir, previous, settings, templates: templatesRecord(outDir, options.templates) });
}

/** Scaffolds whose last rendering differed from their origin, as the last run recorded them. */
function recordedDrift(outDir: string, previous: Manifest): string[] {
  const rendered = Object.keys(previous.files).filter((path) => previous.files[path]!.rendered !== undefined);
  return driftedScaffolds(previous.files, readDiskState(outDir, rendered));
}

/** A scaffold's origin a generate would write or delete: the record is committed output like any other. */
function originFinding(action: Action): Finding {
  const problem = action.change === 'create' ? 'missing' : action.change === 'delete' ? 'orphaned' : 'stale';
  return { path: action.path, problem };
}

export interface ScaffoldDiffOptions extends GenerateOptions {
  /** The scaffold: relative to --out (as `generate` lists it), or a path to it from the current folder. */
  scaffold: string;
  /** Record the fresh rendering as the scaffold's origin: the user has merged what they wanted of it. */
  accept?: boolean;
}

export interface ScaffoldDiffResult {
  /** The scaffold's path below --out. */
  path: string;
  /** From its origin to its fresh rendering, as `patch -p1` reads it (`a/<path>`, `b/<path>`); empty when they are the same. */
  diff: string;
  accepted: boolean;
  loadWarnings: Diagnostic[];
}

/** `specforge diff-scaffold`: what the spec now renders for a scaffold, against what specforge last recorded for it. */
export async function scaffoldDiff(options: ScaffoldDiffOptions): Promise<ScaffoldDiffResult> {
  const outDir = outputFolder(options.outDir, options.spec);
  const path = scaffoldPath(outDir, options);
  const previous = readManifest(outDir);
  const revert = templatesLeftOut(previous, options, 'diff-scaffold');
  if (revert.length > 0) throw new SpecforgeError(revert);
  const { files, loadWarnings } = await buildOutputs({ ...options, lint: false, previousStorage: readStorageModel(outDir) });
  const fresh = files.find((file) => file.path === path && file.kind === 'scaffold');
  if (fresh === undefined) {
    const scaffolds = files.filter((file) => file.kind === 'scaffold').map((file) => file.path);
    throw new SpecforgeError([diagnostic('SCAFFOLD_UNKNOWN', `${JSON.stringify(path)} is not a scaffold the spec produces; its scaffolds: ${scaffolds.join(', ')}`, { file: options.outDir })]);
  }
  const recorded = previous?.files[path];
  const origin = recorded?.kind === 'scaffold' ? readTexts(outDir, [originPath(path)]).get(originPath(path)) : undefined;
  if (recorded === undefined || origin === undefined || sha256(origin) !== recorded.sha256) {
    throw new SpecforgeError([diagnostic('SCAFFOLD_ORIGIN_MISSING', `${path} has no recorded origin in ${options.outDir}`, { file: join(options.outDir, originPath(path)) })]);
  }
  const diff = unifiedDiff(origin, fresh.contents, { from: `a/${path}`, to: `b/${path}` });
  const accept = options.accept === true && diff !== '';
  if (accept) recordOrigin(outDir, path, fresh.contents, { ...previous!, files: { ...previous!.files, [path]: { kind: 'scaffold', sha256: sha256(fresh.contents) } } });
  return { path, diff, accepted: accept, loadWarnings };
}

/** The scaffold named, as a path below --out: a path from here into --out, or one relative to it; never one that leaves it. */
function scaffoldPath(outDir: string, { scaffold, outDir: shownOut }: ScaffoldDiffOptions): string {
  const fromHere = resolve(scaffold);
  const inside = [outDir, resolve(shownOut)].find((folder) => fromHere !== resolve(folder) && isInside(folder, fromHere));
  const path = inside === undefined ? scaffold : relative(inside, fromHere).split(sep).join('/');
  const problem = outsideOutProblem(path);
  if (problem) throw new SpecforgeError([diagnostic('SCAFFOLD_UNKNOWN', `${JSON.stringify(scaffold)} ${problem}`, { file: shownOut })]);
  return path;
}

interface ManifestInput {
  sources: SourceSet;
  resources: Resources;
  templates: string | undefined;
  files: Manifest['files'];
  operations: Record<string, OperationRecord>;
}

function manifestFor({ sources, resources, templates, files, operations }: ManifestInput): Manifest {
  const overlay = sources.overlayFile;
  return {
    manifestVersion: 1,
    generator: `specforge@${VERSION}`,
    inputs: sources.all.map((file) => ({ path: inputName(sources.root, file.path), sha256: file.hash })),
    settings: resources.fingerprint,
    ...(templates === undefined ? {} : { templates }),
    ...(overlay === undefined ? {} : { overlay: inputName(sources.root, overlay) }),
    files,
    operations,
  };
}

/** What this run's migration leaves to the user, against the storage model the project recorded. */
function migrationWarnings(previous: StorageModel | undefined, files: readonly OutputFile[]): string[] {
  const recorded = files.find((file) => file.path === STORAGE_PATH);
  if (!previous || !recorded) return [];
  return migrationBetween(previous, parseStorageModel(recorded.contents, STORAGE_PATH))?.warnings ?? [];
}

/** Against the last generation's record (none on a first run, or from a manifest that predates it). */
function operationChanges(
  previous: Record<string, OperationRecord> | undefined,
  current: Record<string, OperationRecord>,
): GenerateResult['operations'] {
  if (!previous) return { added: [], removed: [] };
  const missingFrom = (from: Record<string, OperationRecord>, to: Record<string, OperationRecord>) =>
    Object.entries(from)
      .filter(([id]) => !(id in to))
      .map(([operationId, record]) => ({ operationId, ...record }));
  return { added: missingFrom(current, previous), removed: missingFrom(previous, current) };
}

/** What names the inputs: the spec, where its `$ref`s may lead, the overlay. */
interface InputOptions {
  spec: string;
  refRoot?: string | undefined;
  overlay?: string | undefined;
}

/** An input's name in the manifest: relative to the spec's folder, `/`-separated. */
function inputName(spec: string, file: string): string {
  return relative(dirname(resolve(spec)), resolve(file)).split(sep).join('/');
}

interface UpToDateInput extends InputOptions {
  outDir: string;
  previous: Manifest;
  settings: string;
  templates: string | undefined;
}

/** Same inputs, same settings, outputs untouched: the run would change nothing. */
function isUpToDate(options: UpToDateInput): boolean {
  const { spec, overlay, outDir, previous, settings, templates } = options;
  if (previous.settings !== settings || previous.templates !== templates) return false;
  // The same overlay, or none, as last time: its contents are compared with the other inputs'.
  if (previous.overlay !== (overlay === undefined ? undefined : inputName(spec, overlay))) return false;
  const rootName = inputName(spec, spec);
  if (!previous.inputs.some((input) => input.path === rootName)) return false;
  const inputs = referableInputs(options, previous);
  // An input the spec may not reference now is not read here: the real run that follows reports it.
  if (inputs.length < previous.inputs.length) return false;
  if (!inputs.every((input) => specFileHash(input.file) === input.sha256)) return false;
  const scaffolds = Object.keys(previous.files).filter((path) => previous.files[path]!.kind === 'scaffold');
  const disk = readDiskState(outDir, [...Object.keys(previous.files), ...scaffolds.map(originPath)]);
  // Scaffolds are the user's, edited or deleted: they never make a run necessary. The origin of one
  // still there must be intact (a project generated before origins were kept gets them recorded).
  return Object.entries(previous.files).every(([path, entry]) =>
    entry.kind === 'scaffold' ? disk.get(path) === undefined || disk.get(originPath(path)) === entry.sha256 : disk.get(path) === entry.sha256,
  );
}

/**
 * The manifest's inputs this run may read, with their files: those the spec
 * may reference (inside its ref roots), and the overlay given; a manifest may name any path.
 */
function referableInputs({ spec, refRoot, overlay }: InputOptions, manifest: Manifest): (Manifest['inputs'][number] & { file: string })[] {
  const folder = dirname(resolve(spec));
  const roots = refRootsOf(spec, refRoot);
  const given = overlay === undefined ? undefined : resolve(overlay);
  return manifest.inputs
    .map((input) => ({ ...input, file: resolve(folder, input.path) }))
    .filter((input) => input.file === given || mayReference(roots, input.file));
}
