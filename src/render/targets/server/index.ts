/**
 * The Koa service: generated code under `src/generated/` (the conventions'
 * middleware, the route table, the handler interfaces, precompiled
 * validators) and scaffolds that become the user's (handlers, the in-memory
 * store, the auth hook, the entry point, package.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiModel } from '../../../model/index.js';
import { commentText, fileStem } from '../../../model/names.js';
import { PACKAGE_ROOT } from '../../../resources.js';
import { byText } from '../../../order.js';
import { jsonFile, linesFile, runtimeFile, templateFile, type OutputFile, type RenderInput, type Target } from '../../target.js';
import { PRINT_WIDTH } from '../../prettier-form.js';
import { compileValidatorsBeside, validatorInputs, type ValidatorSources } from './validators.js';
import { nextMigration } from './migrations.js';
import { storageModelOf } from './storage.js';
import { tablesView } from './tables.js';
import { serverView, validatorNames, type ServerView } from './view.js';

/**
 * The modules of `src/generated/conventions/`, the same for every API: copied
 * from `src/runtime/server/generated/conventions/`.
 */
const CONVENTIONS = [
  'answer-headers',
  'auth',
  'body',
  'caching',
  'cors',
  'deadline',
  'edge',
  'environment',
  'errors',
  'log-batch',
  'logger',
  'logging',
  'observe',
  'operation',
  'paging',
  'rate-limit',
  'rate-limit-redis',
  'representation',
  'request',
  'request-id',
  'respond',
  'router',
  'serve',
  'service-routes',
  'state',
  'styles',
  'tracing',
  'validation',
  'versioning',
];

/** Which of the media conventions the API's routes use: forms and files going up (busboy), files and event streams coming down. */
interface MediaUse {
  readsForms: boolean;
  readsFiles: boolean;
  sendsFiles: boolean;
  sendsEvents: boolean;
}

function mediaUseOf(routes: ServerView['routes']): MediaUse {
  return {
    readsForms: routes.some((route) => route.formUpload),
    readsFiles: routes.some((route) => route.fileUpload),
    sendsFiles: routes.some((route) => route.fileAnswer),
    sendsEvents: routes.some((route) => route.eventAnswer),
  };
}

const takesUploads = (use: MediaUse) => use.readsForms || use.readsFiles;

/** Their modules, present only where used. */
function mediaConventions(use: MediaUse): string[] {
  return [...(takesUploads(use) ? ['upload'] : []), ...(use.sendsFiles ? ['download'] : []), ...(use.sendsEvents ? ['events'] : [])];
}

/** What the route table and the handler interfaces import of them. */
function mediaImports(use: MediaUse): object {
  const readers = [...(use.readsFiles ? ['fileUpload'] : []), ...(use.readsForms ? ['formUpload'] : [])];
  return { ...use, takesUploads: takesUploads(use), uploadReaders: readers.join(', ') };
}

/** The project's compiler options: strict, Node's own ESM resolution, `src/` built to `dist/`. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    rootDir: 'src',
    outDir: 'dist',
    sourceMap: true,
  },
  include: ['src'],
};

const GITIGNORE = ['node_modules/', 'dist/', '# Settings of this machine, secrets among them (.env.example lists them).', '.env', '# The embedded database (PGlite) of `npm start` without DATABASE_URL.', 'data/', '# What `npm run test:conformance` reports for CI.', 'reports/', '# Your versions of files that `specforge generate --force` overwrote.', '.specforge/backup/'];

/** `.env.example`: every setting, commented out at its default; `npm start` reads a `.env` beside it. */
const ENV_EXAMPLE = [
  '# Copy to .env and uncomment what you change: the service reads .env at start (variables already set win).',
  '# Every value is checked at start; the README says what each does.',
  '# PORT=3000',
  '# HOST=127.0.0.1',
  '# API_TOKENS=secret:scope1 scope2,another',
  '# API_KEYS=',
  '# DATABASE_URL=postgres://user@127.0.0.1:5432/service',
  '# DATA_DIR=./data',
  '# DATABASE_POOL_SIZE=10',
  '# STORE=sql',
  '# CURSOR_SECRET=',
  '# RATE_LIMIT=',
  '# RATE_LIMIT_WINDOW=',
  '# REDIS_URL=redis://127.0.0.1:6379',
  '# RATE_LIMIT_FAIL=open',
  '# REDIS_TIMEOUT_MS=200',
  '# RATE_LIMIT_KEY_PREFIX=ratelimit:',
  '# CORS_ORIGINS=https://app.example.com,http://localhost:5173',
  '# DOCS_PATH=/docs',
  '# DOCS_AUTH=false',
  '# BODY_MAX_DEPTH=64',
  '# BODY_MAX_MEMBERS=10000',
  '# UPLOAD_LIMIT=',
  '# UPLOAD_MAX_PARTS=1000',
  '# SSE_KEEP_ALIVE_MS=15000',
  '# HEADERS_TIMEOUT_MS=10000',
  '# REQUEST_TIMEOUT_MS=30000',
  '# KEEP_ALIVE_TIMEOUT_MS=5000',
  '# SHUTDOWN_GRACE_MS=10000',
  '# HANDLER_TIMEOUT_MS=15000',
  '# MAX_CONNECTIONS=0',
  '# LOG_LEVEL=info',
  '# LOG_REDACT_HEADERS=',
  '# LOG_REDACT_FIELDS=',
  '# LOG_ASYNC_CONTEXT=false',
  '# TRUST_PROXY=false',
  '# PROXY_HOPS=1',
];

/** What the generated service installs: the versions specforge itself is tested with. */
const RUNTIME_DEPENDENCIES = ['@electric-sql/pglite', '@koa/cors', '@redis/client', 'ajv', 'ajv-formats', 'koa', 'kysely', 'pg', 'pino', 'swagger-ui-dist', 'yaml'];
const DEV_DEPENDENCIES = ['@jest/globals', '@jest/test-sequencer', '@types/koa', '@types/koa__cors', '@types/node', '@types/pg', 'cross-env', 'fast-check', 'jest', 'jest-environment-node', 'pino-pretty', 'ts-jest', 'typescript'];

export const serverTarget: Target = {
  name: 'server',
  async render({ document, model, renderer, runtime, previousStorage }) {
    // Started first: it compiles on a worker while this target and the next ones render.
    const names = validatorNames(model.operations);
    const inputs = validatorInputs(document, model.operations, names);
    const validators = compileValidatorsBeside(inputs);
    validators.catch(() => {}); // observed through the files below, even if this target fails first
    const view = serverView(model, document, names);
    const media = mediaUseOf(view.routes);
    const migration = nextMigration(storageModelOf(model, view), previousStorage);
    const { storage } = migration;
    const validatorFile = async (name: keyof ValidatorSources): Promise<OutputFile> => ({
      path: `src/generated/validators/${name}.ts`,
      contents: (await validators)[name],
      kind: 'generated',
      format: 'as-is',
    });
    const generated = (path: string, template: string, data: object) => templateFile(renderer, `server/generated/${template}`, `src/generated/${path}`, data, 'generated');
    const scaffold = (path: string, template: string, data: object) => templateFile(renderer, `server/scaffold/${template}`, path, data, 'scaffold');
    const convention = (name: string) => runtimeFile(runtime, `server/generated/conventions/${name}.ts`, 'generated');
    return [
      ...[...CONVENTIONS, ...mediaConventions(media)].map(convention),
      generated('service.ts', 'service.ts.hbs', serviceSettings(model)),
      generated('app.ts', 'app.ts.hbs', view),
      generated('routes.ts', 'routes.ts.hbs', { operations: view.routes, groups: view.groups, patchBodies: inputs.patches.length > 0, formBodies: inputs.forms.length > 0, ...mediaImports(media) }),
      generated('handlers.ts', 'handlers.ts.hbs', { ...view, ...mediaImports(media) }),
      validatorFile('parameters'),
      validatorFile('bodies'),
      ...(inputs.patches.length > 0 ? [validatorFile('patches')] : []),
      ...(inputs.forms.length > 0 ? [validatorFile('forms')] : []),
      ...handlerScaffolds(view, scaffold),
      ...storeFiles(view, runtime),
      generated('tables.ts', 'tables.ts.hbs', tablesView(storage, [...view.collections, ...view.singletons].map((table) => table.variable).concat(view.filesVariable))),
      ...(migration.file ? [{ ...migration.file, kind: 'scaffold' as const, format: 'as-is' as const }] : []),
      jsonFile('migrations/storage.json', storage, 'generated'),
      generated('store.ts', 'store.ts.hbs', view),
      scaffold('src/store/index.ts', 'store/index.ts.hbs', {}),
      scaffold('src/migrate.ts', 'migrate.ts.hbs', {}),
      runtimeFile(runtime, 'server/auth.ts', 'scaffold'),
      runtimeFile(runtime, 'server/dev.ts', 'scaffold'),
      scaffold('src/main.ts', 'main.ts.hbs', { title: commentText(model.title) }),
      scaffold('package.json', 'package.json.hbs', packageView(model, takesUploads(media))),
      jsonFile('tsconfig.json', TSCONFIG, 'scaffold'),
      linesFile('.gitignore', GITIGNORE, 'scaffold'),
      linesFile('.env.example', ENV_EXAMPLE, 'scaffold'),
    ];
  },
};

/** The store's modules: the SQL store and its database, and the in-memory one (STORE=memory) it shares body rules with. */
function storeFiles(view: ServerView, runtime: RenderInput['runtime']): OutputFile[] {
  const modules = [
    ...['collection', 'database', 'migrate', 'memory', 'statement', 'sql'],
    ...(view.singletons.length > 0 ? ['singleton', 'sql-singleton'] : []),
    ...(view.uploads.length > 0 ? ['files', 'uploads'] : []),
  ];
  return modules.map((module) => runtimeFile(runtime, `server/store/${module}.ts`, 'scaffold'));
}

type Scaffold = (path: string, template: string, data: object) => OutputFile;

function handlerScaffolds(view: ServerView, scaffold: Scaffold): OutputFile[] {
  return view.groups.map((group) =>
    scaffold(`src/handlers/${group.file}.ts`, 'handlers/resource.ts.hbs', {
      ...group,
      notImplemented: group.operations.some((operation) => !operation.storeCall),
      // Past the margin, prettier moves the object to the next line; the template writes it there.
      declarationFits: `export const ${group.identifier}: ${group.interfaceName} = {`.length <= PRINT_WIDTH,
    }),
  );
}

function serviceSettings(model: ApiModel): object {
  const { mechanism, version } = model.config.versioning;
  return {
    title: model.title,
    basePath: model.basePath,
    versioning: { version, url: mechanism === 'url' || mechanism === 'both', header: mechanism === 'header' || mechanism === 'both' },
    apiKeyHeaders: apiKeyHeaders(model),
    rateLimit: { limit: model.config.rateLimit.limit, windowSeconds: model.config.rateLimit.windowSeconds },
    bodyLimit: model.config.bodyLimit,
    uploadLimit: model.config.uploadLimit,
    validationStatus: model.config.validation.status,
    realm: realmOf(model.title),
  };
}

/** A quoted-string's safe subset (RFC 9110 §5.6.4): printable ASCII without `"` and `\`; never empty. */
export function realmOf(title: string): string {
  const printable = title.replace(/[^\x20-\x7e]|["\\]/g, '').trim().slice(0, 100);
  return printable === '' ? 'api' : printable;
}

/** The spec's API key headers; X-API-Key, the conventions' own, when it declares none. */
function apiKeyHeaders(model: ApiModel): string[] {
  const headers = model.securitySchemes.filter((scheme) => scheme.kind === 'apiKey' && scheme.header).map((scheme) => scheme.header!);
  return headers.length > 0 ? [...new Set(headers)] : ['X-API-Key'];
}

function packageView(model: ApiModel, uploads: boolean): object {
  const own = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const versions = { ...own.devDependencies, ...own.dependencies };
  const range = (name: string) => ({ name, version: `^${versions[name]!.replace(/^[~^]/, '')}` });
  return {
    // A valid npm package name whatever the title: lower-case ASCII, digits and dashes.
    packageName: fileStem(model.title, 'service'),
    version: model.version,
    description: model.title,
    dependencies: [...RUNTIME_DEPENDENCIES, ...(uploads ? ['busboy'] : [])].sort(byText).map(range),
    devDependencies: [...DEV_DEPENDENCIES, ...(uploads ? ['@types/busboy'] : [])].sort(byText).map((name) => (name === 'typescript' ? { name, version: `~${versions[name]}` } : range(name))),
    // specforge's own pins of transitive packages (see its package.json): the same lock-file
    // completeness for the generated project, whose `npm ci` needs every platform's bindings.
    overrides: Object.entries(own.overrides ?? {}).map(([name, version]) => ({ name, version })),
  };
}
