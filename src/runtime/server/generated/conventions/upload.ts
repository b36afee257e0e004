/**
 * Reads request bodies that are not JSON: `multipart/form-data` and
 * `application/x-www-form-urlencoded` forms, and a body that is itself a file
 * (raw bytes). Files are streamed to temporary files, never held whole in
 * memory, and each is deleted once the answer is sent or the connection
 * closes, or at once when reading fails: a handler that keeps a file moves or
 * copies it. 415 for a request or file media type the operation does not
 * take, 413 past a file's, the text fields' or the parts' limit, 422 for
 * files that are not where the operation expects them, 400 for a malformed
 * form. Field names come from the client: they are plain keys of objects
 * without a prototype, whatever they are (`__proto__`).
 */
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { essence, mediaTypeMatches, NO_BODY } from './body.js';
import { errors, type ErrorDetail } from './errors.js';
import type { StreamSettings, Upload, UploadRule } from './operation.js';
import type { Validator } from './validation.js';

export interface UploadedFile {
  /** The form field it came in; `body` for a body that is the file. */
  field: string;
  /** As the client named it, without any directory part; '' when it gave none. */
  filename: string;
  /** As the client declared it (its part's Content-Type), without parameters. */
  mediaType: string;
  /** In bytes. */
  size: number;
  /** The temporary file that holds it, deleted once the answer is sent. */
  path: string;
  stream(): Readable;
  bytes(): Promise<Buffer>;
}

/** A form field that takes files. */
export interface FormFileRule {
  name: string;
  multiple: boolean;
  required: boolean;
  /** The media types its files may have (`image/*` too); none: any. */
  mediaTypes: string[];
}

export interface FormRule {
  /** The media types the operation declares for its body. */
  contentTypes: string[];
  files: FormFileRule[];
  required: boolean;
  /** In bytes: for all the fields that are not files together, names included. */
  limit: number;
}

export interface UploadLimits {
  /** In bytes, for each file. */
  fileSize: number;
  /** Fields and files together. */
  parts: number;
  /** Where files are spooled; default: `os.tmpdir()`. */
  directory?: string;
}

/** A form as read; a repeated text field is an array, a `multiple` file field always one. */
export interface FormBody {
  fields: Record<string, string | string[]>;
  files: Record<string, UploadedFile | UploadedFile[]>;
}

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
/** A part's headers take up to 16 KiB (busboy's bound), its boundary lines a little more. */
const PART_FRAMING = 16 * 1024 + 256;
/** How much of a refused body is still read and dropped, so the client gets to read the answer. */
const DISCARD_BOUND = 8 * 1024 * 1024;

/** `NO_BODY` when the request has none: validation reports it if the body is required. */
export async function readForm(
  ctx: Context,
  rule: FormRule,
  limits: UploadLimits,
): Promise<FormBody | typeof NO_BODY> {
  const type = bodyType(ctx);
  if (type === undefined) return NO_BODY;
  if (!FORM_TYPES.includes(type) || !mediaTypeMatches(type, rule.contentTypes))
    throw errors.unsupportedMediaType(rule.contentTypes);
  refuseLength(ctx, formBound(rule, limits));
  return readParts(ctx, rule, limits);
}

/** A body that is the file itself (field `body`); `NO_BODY` when the request has none. */
export async function readBytes(
  ctx: Context,
  rule: { contentTypes: string[]; required: boolean },
  limits: UploadLimits,
): Promise<UploadedFile | typeof NO_BODY> {
  const type = bodyType(ctx);
  if (type === undefined) return NO_BODY;
  // RFC 9110 §8.3: a body without a media type may be taken for bytes.
  const mediaType = type === '' ? 'application/octet-stream' : type;
  if (!mediaTypeMatches(mediaType, rule.contentTypes))
    throw errors.unsupportedMediaType(rule.contentTypes);
  refuseLength(ctx, limits.fileSize);
  const reading = startReading<UploadedFile>(ctx, limits.directory ?? tmpdir());
  let size = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > limits.fileSize ? errors.payloadTooLarge(limits.fileSize) : null, chunk);
    },
  });
  reading.onFailure(() => {
    ctx.req.unpipe(limiter);
    limiter.destroy();
  });
  const file = reading.spool(limiter, { field: 'body', filename: '', mediaType });
  ctx.req.pipe(limiter);
  await reading.written();
  reading.succeed(file);
  return reading.result;
}

/** The request's media type ('' when it names none), or undefined when it has no body. */
function bodyType(ctx: Context): string | undefined {
  const length = ctx.request.length;
  if (length === 0 || (length === undefined && ctx.get('Transfer-Encoding') === '')) return;
  return essence(ctx.get('Content-Type'));
}

/** 413 before reading when Content-Length already says so; the connection is closed, the body unread. */
function refuseLength(ctx: Context, bound: number): void {
  if ((ctx.request.length ?? 0) <= bound) return;
  ctx.set('Connection', 'close');
  throw errors.payloadTooLarge(bound);
}

/** The most a form within the limits may take: each file it may hold at the file limit, its text fields percent-encoded (3 bytes a byte), and each part's framing. */
function formBound(rule: FormRule, limits: UploadLimits): number {
  const files = rule.files.reduce((count, file) => count + (file.multiple ? limits.parts : 1), 0);
  return (
    Math.min(files, limits.parts) * limits.fileSize + 3 * rule.limit + limits.parts * PART_FRAMING
  );
}

function readParts(ctx: Context, rule: FormRule, limits: UploadLimits): Promise<FormBody> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      defParamCharset: 'utf8',
      // One past ours: busboy's limits flag reaching them, ours are for going past them.
      limits: {
        fileSize: limits.fileSize + 1,
        fieldSize: rule.limit + 1,
        fieldNameSize: rule.limit + 1,
        parts: limits.parts + 1,
        fields: limits.parts + 1,
      },
    });
  } catch (error) {
    throw malformed(error); // a multipart type without a boundary
  }
  const reading = startReading<FormBody>(ctx, limits.directory ?? tmpdir());
  const form: FormBody = { fields: Object.create(null), files: Object.create(null) };
  const fileRules = new Map(rule.files.map((file) => [file.name, file]));
  const problems: ErrorDetail[] = [];
  let parts = 0;
  let textBytes = 0;
  /** One detail per field and problem. */
  const problem = (name: string, message: string, code: string) => {
    const field = `body.${name}`;
    if (!problems.some((known) => known.field === field && known.code === code))
      problems.push({ field, message, code });
  };
  const admitted = () => {
    parts += 1;
    if (parts > limits.parts)
      reading.fail(errors.bodyTooComplex(`The form has more than ${limits.parts} parts.`));
    return !reading.settled;
  };
  /** True when the file is to be kept; otherwise a problem, or the reading failed. */
  const acceptable = (name: string, mediaType: string) => {
    const fileRule = fileRules.get(name);
    if (!fileRule) problem(name, 'takes no file', 'UNEXPECTED_FILE');
    else if (fileRule.mediaTypes.length > 0 && !mediaTypeMatches(mediaType, fileRule.mediaTypes))
      reading.fail(errors.unsupportedMediaType(fileRule.mediaTypes, `The file in body.${name}`));
    else if (!fileRule.multiple && Object.hasOwn(form.files, name))
      problem(name, 'takes one file', 'TOO_MANY_FILES');
    else return true;
    return false;
  };

  parser.on('field', (name = '', value, info) => {
    if (!admitted()) return;
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.nameTruncated || info.valueTruncated || textBytes > rule.limit)
      return reading.fail(errors.payloadTooLarge(rule.limit, "The form's text fields together"));
    if (fileRules.has(name)) problem(name, 'must be a file', 'NOT_A_FILE');
    else append(form.fields, name, value);
  });
  parser.on('file', (name = '', stream, info) => {
    // Each file stream gets its error handled: busboy destroys the current one with an error when it fails.
    stream.on('error', (error) => reading.fail(malformed(error)));
    if (!admitted() || !acceptable(name, info.mimeType)) {
      stream.resume(); // dropped: busboy goes on only once it is read
      return;
    }
    stream.once('limit', () =>
      reading.fail(errors.payloadTooLarge(limits.fileSize, `The file in body.${name}`)),
    );
    // Kept in the order sent, whichever finishes writing first.
    const file = reading.spool(stream, {
      field: name,
      filename: info.filename ?? '',
      mediaType: info.mimeType,
    });
    if (fileRules.get(name)!.multiple) append(form.files, name, [file]);
    else form.files[name] = file;
  });
  // Kept for good: busboy may emit more than one error (a bad part header, then the end of the form).
  parser.on('error', (error) => reading.fail(malformed(error)));
  parser.once('close', () => {
    if (!parser.writableFinished)
      return reading.fail(malformed(new Error('Unexpected end of form')));
    void reading.written().then(() => {
      for (const fileRule of rule.files)
        if (fileRule.required && !Object.hasOwn(form.files, fileRule.name))
          problem(fileRule.name, 'is required', 'REQUIRED');
      if (problems.length > 0) reading.fail(errors.validation(problems));
      else reading.succeed(form);
    });
  });
  reading.onFailure(() => {
    ctx.req.unpipe(parser);
    parser.destroy(); // and the file stream it was writing to
  });
  ctx.req.pipe(parser);
  return reading.result;
}

/** Adds a value to a field's; a second value makes an array. */
function append<T>(record: Record<string, T | T[]>, name: string, value: T | T[]): void {
  if (!Object.hasOwn(record, name)) record[name] = value;
  else {
    const known = record[name]!;
    const values = Array.isArray(value) ? value : [value];
    record[name] = Array.isArray(known) ? [...known, ...values] : [known, ...values];
  }
}

function malformed(error: unknown) {
  return errors.badRequest(`The request body is not a valid form: ${(error as Error).message}.`);
}

/** One body being read: settled once; on failure, nothing is left reading and its files are gone. */
interface Reading<T> {
  readonly result: Promise<T>;
  readonly settled: boolean;
  /** A new temporary file written from `source`. */
  spool(
    source: Readable,
    about: Pick<UploadedFile, 'field' | 'filename' | 'mediaType'>,
  ): UploadedFile;
  /** Once every file is written (or failed to be); never rejects. */
  written(): Promise<void>;
  onFailure(stop: () => void): void;
  /** Rejects once the files are deleted; a no-op once settled. */
  fail(error: unknown): void;
  succeed(value: T): void;
}

function startReading<T>(ctx: Context, directory: string): Reading<T> {
  const writes: Promise<void>[] = [];
  const closings: Promise<void>[] = [];
  const paths: string[] = [];
  const stops: (() => void)[] = [];
  let settled = false;
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  // After each file is closed: one still opening would otherwise be created after its deletion.
  const removeAll = async () => {
    await Promise.all(closings);
    await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => {})));
  };
  const reading: Reading<T> = {
    result,
    get settled() {
      return settled;
    },
    spool(source, about) {
      const path = join(directory, `upload-${randomUUID()}`);
      const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      paths.push(path);
      closings.push(new Promise((resolve) => out.once('close', () => resolve())));
      const file: UploadedFile = {
        ...about,
        size: 0,
        path,
        stream: () => createReadStream(path),
        bytes: () => readFile(path),
      };
      writes.push(
        pipeline(source, out).then(
          () => void (file.size = out.bytesWritten),
          (error: unknown) => reading.fail(error),
        ),
      );
      return file;
    },
    written: async () => void (await Promise.all(writes)),
    onFailure: (stop) => void stops.push(stop),
    fail(error) {
      if (settled) return;
      settled = true;
      // Not within the parser's event (busboy goes on with the stream it emitted it for).
      process.nextTick(() => {
        for (const stop of stops) stop();
        discardRest(ctx);
        void removeAll().then(() => settle.reject(error));
      });
    },
    succeed(value) {
      if (settled) return;
      settled = true;
      settle.resolve(value);
    },
  };
  // 'close' comes once the answer is sent, or when the connection drops first (the client left mid-body).
  ctx.res.once('close', () => {
    reading.fail(errors.clientGone());
    void removeAll();
  });
  ctx.req.on('error', (error) => reading.fail(ctx.req.complete ? error : errors.clientGone()));
  ctx.req.once('close', () => {
    if (!ctx.req.complete) reading.fail(errors.clientGone());
  });
  return reading;
}

/**
 * After a refusal the rest of the body is read and dropped, so a client still
 * sending gets to read the answer instead of a reset connection (RFC 9112
 * §9.6); past a bound, the connection is closed instead.
 */
function discardRest(ctx: Context): void {
  const req = ctx.req;
  req.unpipe();
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= DISCARD_BOUND) return;
    req.off('data', drop);
    if (ctx.headerSent) req.socket.destroy();
    else {
      ctx.set('Connection', 'close');
      req.pause();
    }
  };
  req.on('data', drop);
  req.resume();
}

/** A route's form body: read, its object fields parsed from their JSON text, then validated with `validate`. */
export function formUpload(
  rule: FormRule & { jsonFields: string[] },
  validate: Validator,
): UploadRule {
  return {
    required: rule.required,
    validate,
    read: async (ctx: Context, settings: StreamSettings) => {
      const form = await readForm(ctx, rule, settings.uploads);
      return form === NO_BODY ? NO_BODY : formDocument(form, rule.jsonFields);
    },
  };
}

/** A route's body that is a file itself. */
export function fileUpload(rule: { contentTypes: string[]; required: boolean }): UploadRule {
  return {
    required: rule.required,
    read: async (ctx: Context, settings: StreamSettings) => {
      const file = await readBytes(ctx, rule, settings.uploads);
      return file === NO_BODY ? NO_BODY : { kind: 'file', file };
    },
  };
}

/** The fields as validation reads them: JSON text parsed where the field is an object (else left for the validator to refuse). */
function formDocument(form: FormBody, jsonFields: string[]): Upload {
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(form.fields))
    fields[name] = jsonFields.includes(name) ? parsedOrText(value) : value;
  return { kind: 'form', fields, files: form.files };
}

function parsedOrText(value: string | string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => parsedOrText(item));
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
