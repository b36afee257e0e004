/**
 * Files the default handlers keep for items (uploads): the bytes and what
 * describes them, per item and field: in the database's files table
 * (SqlFiles, the default), or in this process's memory (MemoryFiles,
 * STORE=memory). Keeping a field's files replaces what it held; deleting the
 * item forgets them all. specforge created this file once; it is yours.
 */
import { createHash } from 'node:crypto';
import type { Database } from './database.js';
import { run, sql, identifier } from './statement.js';

/** A file as it arrives: its bytes and what the client said of them. */
export interface NewFile {
  mediaType: string;
  /** '' when the client named none. */
  filename: string;
  bytes: Buffer;
}

/** A kept file: with its size and its SHA-256 (hex). */
export interface KeptFile extends NewFile {
  size: number;
  sha256: string;
}

/** What describes a kept file, without its bytes. */
export type FileDescription = Omit<KeptFile, 'bytes'>;

/** Files to keep, read one after another: a field's several files are never all in memory at once. */
export type FileSource =
  Iterable<NewFile, unknown, undefined> | AsyncIterable<NewFile, unknown, undefined>;

/** Where a file is kept: the collection (its resource's key), the item's key, the field it came in. */
export interface FileSlot {
  collection: string;
  item: string;
  field: string;
}

export interface Files {
  /** Keeps the files (several for a field that takes several) in place of what the slot held: how many. */
  keep(slot: FileSlot, files: FileSource): Promise<number>;
  /** The slot's file at `index` (its first by default). */
  find(slot: FileSlot, index?: number): Promise<KeptFile | undefined>;
  /** What describes it, without reading its bytes. */
  describe(slot: FileSlot, index?: number): Promise<FileDescription | undefined>;
  /** Forgets every file of the item. */
  forget(item: Omit<FileSlot, 'field'>): Promise<void>;
}

export function keptFile(file: NewFile): KeptFile {
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  return { ...file, size: file.bytes.length, sha256 };
}

/** Files in this process's memory, lost when it stops: for mocks and tests. */
export class MemoryFiles implements Files {
  private readonly slots = new Map<string, KeptFile[]>();

  async keep(slot: FileSlot, files: FileSource): Promise<number> {
    const kept: KeptFile[] = [];
    for await (const file of files) kept.push(keptFile(file));
    this.slots.set(slotKey(slot), kept);
    return kept.length;
  }

  async find(slot: FileSlot, index = 0): Promise<KeptFile | undefined> {
    return this.slots.get(slotKey(slot))?.[index];
  }

  async describe(slot: FileSlot, index = 0): Promise<FileDescription | undefined> {
    const kept = await this.find(slot, index);
    if (kept === undefined) return undefined;
    const { bytes: _bytes, ...description } = kept;
    return description;
  }

  async forget(item: Omit<FileSlot, 'field'>): Promise<void> {
    const prefix = itemKey(item);
    for (const key of [...this.slots.keys()]) if (key.startsWith(prefix)) this.slots.delete(key);
  }
}

/** JSON text of the parts: no separator a name could forge. */
const itemKey = ({ collection, item }: Omit<FileSlot, 'field'>) =>
  JSON.stringify([collection, item]).slice(0, -1) + ',';
const slotKey = (slot: FileSlot) => itemKey(slot) + JSON.stringify(slot.field);

/** The row of a kept file, as the migrations create its table. */
interface FileRow {
  media_type: string;
  filename: string;
  size: string | number;
  sha256: string;
  bytes: Uint8Array;
}

/** Files in the database's files table: a row per file, its bytes in a `bytea` column. */
export class SqlFiles implements Files {
  constructor(
    private readonly database: () => Promise<Database>,
    private readonly table: string,
  ) {}

  async keep(slot: FileSlot, files: FileSource): Promise<number> {
    const db = await this.database();
    const table = identifier(this.table);
    return db.transaction().execute(async (transaction) => {
      await run(
        transaction,
        sql`delete from ${table} where collection = ${slot.collection} and item = ${slot.item} and field = ${slot.field}`,
      );
      let index = 0;
      for await (const each of files) {
        const file = keptFile(each);
        await run(
          transaction,
          sql`insert into ${table} (collection, item, field, position, media_type, filename, size, sha256, bytes) values (${slot.collection}, ${slot.item}, ${slot.field}, ${index++}, ${file.mediaType}, ${file.filename}, ${file.size}, ${file.sha256}, ${file.bytes})`,
        );
      }
      return index;
    });
  }

  async describe(slot: FileSlot, index = 0): Promise<FileDescription | undefined> {
    const db = await this.database();
    const found = await run<Omit<FileRow, 'bytes'>>(
      db,
      sql`select media_type, filename, size, sha256 from ${identifier(this.table)} where collection = ${slot.collection} and item = ${slot.item} and field = ${slot.field} and position = ${index}`,
    );
    const row = found.rows[0];
    return (
      row && {
        mediaType: row.media_type,
        filename: row.filename,
        size: Number(row.size),
        sha256: row.sha256,
      }
    );
  }

  async find(slot: FileSlot, index = 0): Promise<KeptFile | undefined> {
    const db = await this.database();
    const found = await run<FileRow>(
      db,
      sql`select media_type, filename, size, sha256, bytes from ${identifier(this.table)} where collection = ${slot.collection} and item = ${slot.item} and field = ${slot.field} and position = ${index}`,
    );
    const row = found.rows[0];
    if (!row) return undefined;
    const bytes = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    return {
      mediaType: row.media_type,
      filename: row.filename,
      size: Number(row.size),
      sha256: row.sha256,
      bytes,
    };
  }

  async forget(item: Omit<FileSlot, 'field'>): Promise<void> {
    const db = await this.database();
    await run(
      db,
      sql`delete from ${identifier(this.table)} where collection = ${item.collection} and item = ${item.item}`,
    );
  }
}
