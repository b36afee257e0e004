/**
 * What the default handlers do with uploads, so upload → list → download
 * works before anyone writes a handler: a create from a form (or from a body
 * that is a file) keeps the item's fields in its collection and its files in
 * the store's files, the item's fields that describe its file (size, media
 * type, filename, SHA-256) filled from it; a download answers the item's main
 * file; a PUT of bytes replaces it; a delete forgets the item's files.
 * specforge created this file once; it is yours.
 */
import { essence, mediaTypeMatches } from '../generated/conventions/body.js';
import type { FileAnswer } from '../generated/conventions/download.js';
import type { UploadedFile } from '../generated/conventions/upload.js';
import type { Collection } from './collection.js';
import { keptFile, type Files, type FileSlot, type KeptFile, type NewFile } from './files.js';

/** How a collection keeps its items' files (../generated/store.ts, `UPLOADS`). */
export interface FilePlan {
  /** The files' collection: its resource's key (`authors/books`), which no rename of the store changes. */
  collection: string;
  /** The path parameter that names an item. */
  idParam: string;
  /**
   * Where items are named by a key field, unique only under their parent: the
   * path parameters of the parents, part of an item's key for its files.
   */
  owners?: string[];
  /** The form's fields that take files; none where the body is the file itself. */
  fileFields: string[];
  /** The file a download answers and a PUT of bytes replaces. */
  main: string;
  /** The item's fields that the main file fills, by what of the file each holds. */
  describedBy: Partial<Record<'size' | 'mediaType' | 'filename' | 'sha256', string>>;
  /** The media types its download declares. */
  answers: string[];
}

interface Request {
  path: object;
  body?: unknown;
}

type Item = Record<string, unknown>;

const UNTYPED = 'application/octet-stream';

/** Creates the item from the form's fields, then keeps its files; undefined where its parent is missing. */
export async function createWithFiles<Out>(
  items: Collection<unknown>,
  files: Files,
  plan: FilePlan,
  request: Request,
): Promise<Out | undefined> {
  const { fields, uploads } = partsOf(request.body, plan);
  // The main file is read first: the item's fields that describe it need its digest.
  const [first, ...rest] = uploads.get(plan.main) ?? [];
  const main = first && (await newFile(first));
  const body = { ...fields, ...(main ? describedBy(keptFile(main), plan) : {}) };
  const created = await items.create<Item>({ path: request.path, body });
  if (created === undefined) return undefined;
  const item = {
    collection: plan.collection,
    item: itemKey(plan, created, { ...fields, ...request.path }),
  };
  try {
    for (const [field, uploaded] of uploads)
      await files.keep({ ...item, field }, field === plan.main ? read(rest, main) : read(uploaded));
  } catch (error) {
    // No item without the files it was created with; the first failure is the one told.
    const path = { ...request.path, [plan.idParam]: created.id };
    await Promise.allSettled([items.remove({ path }), files.forget(item)]);
    throw error;
  }
  return created as Out;
}

/** The item's main file; undefined where the item, or its file, is missing (404). */
export async function fileOf(
  items: Collection<unknown>,
  files: Files,
  plan: FilePlan,
  request: Request,
): Promise<FileAnswer | undefined> {
  const found = await mainFileOf(items, plan, request);
  const kept = found && (await files.find(found.slot));
  if (kept === undefined) return undefined;
  return {
    body: kept.bytes,
    mediaType: answerable(kept.mediaType, plan.answers),
    size: kept.size,
    ...(kept.filename === '' ? {} : { filename: kept.filename }),
  };
}

/**
 * Replaces the item's main file with the body, and the fields that describe
 * it; undefined where the item is missing. Bytes sent as
 * `application/octet-stream` (of no type in particular) keep the type of the
 * file they replace (a download answers one of the types it declares), and
 * bytes sent with no name keep its name.
 */
export async function replaceFile<Out>(
  items: Collection<unknown>,
  files: Files,
  plan: FilePlan,
  request: Request,
): Promise<Out | undefined> {
  const found = await mainFileOf(items, plan, request);
  if (found === undefined) return undefined;
  const { item, slot } = found;
  const file = await newFile(request.body as UploadedFile);
  const previous = await files.describe(slot);
  if (file.mediaType === UNTYPED) file.mediaType = previous?.mediaType ?? UNTYPED;
  if (file.filename === '') file.filename = previous?.filename ?? '';
  await files.keep(slot, [file]);
  const description = describedBy(keptFile(file), plan);
  if (Object.keys(description).length === 0) return item as Out;
  return items.update<Out>({ path: request.path, body: description });
}

/** Deletes the item and forgets its files; answers the item (undefined where it is missing). */
export async function takeWithFiles<Out>(
  items: Collection<unknown>,
  files: Files,
  plan: FilePlan,
  request: Request,
): Promise<Out | undefined> {
  const taken = await items.take<Item>({ path: request.path });
  if (taken !== undefined)
    await files.forget({ collection: plan.collection, item: itemKey(plan, taken, request.path) });
  return taken as Out | undefined;
}

/** The item the path names, and where its main file is kept; undefined where it is missing. */
async function mainFileOf(
  items: Collection<unknown>,
  plan: FilePlan,
  request: Request,
): Promise<{ item: Item; slot: FileSlot } | undefined> {
  const item = await items.get<Item>({ path: request.path });
  if (item === undefined) return undefined;
  const key = itemKey(plan, item, request.path);
  return { item, slot: { collection: plan.collection, item: key, field: plan.main } };
}

/**
 * An item's key among its collection's files: the id the store gave it
 * (`id` in either shape), with its parents' where a key field names items
 * only under their parent.
 */
function itemKey(plan: FilePlan, item: Item, path: object): string {
  const id = String(item.id);
  if (!plan.owners?.length) return id;
  const values = path as Record<string, unknown>;
  return JSON.stringify([...plan.owners.map((owner) => String(values[owner] ?? item[owner])), id]);
}

/** The form's fields and its files by field; a body that is a file is the main file. */
function partsOf(
  body: unknown,
  plan: FilePlan,
): { fields: Item; uploads: Map<string, UploadedFile[]> } {
  if (plan.fileFields.length === 0)
    return {
      fields: {},
      uploads: new Map(body === undefined ? [] : [[plan.main, [body as UploadedFile]]]),
    };
  const fields = Object.create(null) as Item;
  const uploads = new Map<string, UploadedFile[]>();
  for (const [name, value] of Object.entries((body ?? {}) as Item)) {
    if (!plan.fileFields.includes(name)) fields[name] = value;
    else uploads.set(name, (Array.isArray(value) ? value : [value]) as UploadedFile[]);
  }
  return { fields, uploads };
}

/** The files, each read as it is kept (after `first`, read already). */
async function* read(uploaded: UploadedFile[], first?: NewFile): AsyncIterable<NewFile> {
  if (first) yield first;
  for (const file of uploaded) yield newFile(file);
}

/**
 * The file's own media type where the download declares it; else the one it
 * declares (`application/octet-stream` first, bytes of any kind), so a file
 * kept under another type is still answered.
 */
function answerable(mediaType: string, declared: string[]): string {
  if (declared.length === 0 || mediaTypeMatches(mediaType, declared)) return mediaType;
  const concrete = declared.filter((type) => !type.includes('*'));
  return (
    concrete.find((type) => essence(type) === UNTYPED) ??
    (concrete.length === 1 ? concrete[0]! : mediaType)
  );
}

async function newFile(uploaded: UploadedFile): Promise<NewFile> {
  return {
    mediaType: uploaded.mediaType,
    // Control characters (a NUL no text column holds) become `_`, as Content-Disposition sends them.
    filename: uploaded.filename.replace(/[\u0000-\u001f\u007f]/g, '_'),
    bytes: await uploaded.bytes(),
  };
}

/** The item's fields that describe the file; a file the client gave no name leaves its filename field alone. */
function describedBy(file: KeptFile, plan: FilePlan): Item {
  const entries = Object.entries(plan.describedBy).filter(
    ([property]) => property !== 'filename' || file.filename !== '',
  );
  return Object.fromEntries(
    entries.map(([property, field]) => [field, file[property as keyof KeptFile]]),
  );
}
