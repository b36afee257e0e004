/**
 * How an operation's data travels, read from its media types: a request body
 * as JSON, a form (`multipart/form-data`, `application/x-www-form-urlencoded`)
 * with its file fields, raw bytes, or something the service cannot read; a
 * success as JSON, a file or a `text/event-stream`. The model, the lint and
 * every target read operations through these (classify.ts's `mediaOf`, which
 * the merge reads before the model exists, in the same order), so they agree.
 */
import { isJsonMediaType, propertiesOf, scalarTypeOf } from './classify.js';
import { deref, isObject, type MediaTypeObject, type OpenApiDocument, type Reference, type SchemaObject } from './document.js';

/** `multipart/form-data; boundary=…` → `multipart/form-data`. */
export function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

export const MULTIPART = 'multipart/form-data';
export const URLENCODED = 'application/x-www-form-urlencoded';
export const EVENT_STREAM = 'text/event-stream';

/** A form field that takes a file (`format: binary`, or 3.1's `contentMediaType`), or several. */
export interface FormFileField {
  name: string;
  /** An array of files. */
  multiple: boolean;
  required: boolean;
  /** The media types its files may have (`encoding.contentType`, `contentMediaType`); empty: any. */
  mediaTypes: string[];
}

export type BodyMedia =
  | { kind: 'json'; mediaType: string }
  | {
      kind: 'form';
      /** The form media types declared, multipart first. */
      mediaTypes: string[];
      /** The media type whose schema describes the form. */
      schemaMediaType: string;
      files: FormFileField[];
      /** Object (or array of object) fields: sent as JSON text. */
      jsonFields: string[];
    }
  | { kind: 'bytes'; mediaTypes: string[] }
  | { kind: 'unsupported'; mediaTypes: string[] };

/** What a request body is, by its `content`: JSON wins where it is one of the choices. */
export function bodyMediaOf(document: OpenApiDocument, content: Record<string, MediaTypeObject>): BodyMedia {
  const mediaTypes = Object.keys(content);
  const json = mediaTypes.find(isJsonMediaType);
  if (json) return { kind: 'json', mediaType: json };
  const forms = [MULTIPART, URLENCODED].flatMap((form) => mediaTypes.filter((type) => essenceOf(type) === form));
  if (forms.length > 0) return formOf(document, content, forms);
  const bytes = mediaTypes.filter((type) => isBytes(document, content[type]!));
  if (bytes.length > 0 && bytes.length === mediaTypes.length) return { kind: 'bytes', mediaTypes: bytes };
  return { kind: 'unsupported', mediaTypes: mediaTypes.filter((type) => !bytes.includes(type)) };
}

/** A body sent as it is: no schema, or a string one (`format: binary`), and no structured text (XML) the service would have to parse. */
function isBytes(document: OpenApiDocument, media: MediaTypeObject): boolean {
  const schema = media.schema && deref<SchemaObject>(document, media.schema);
  return schema === undefined || Object.keys(schema).length === 0 || scalarTypeOf(schema) === 'string';
}

function formOf(document: OpenApiDocument, content: Record<string, MediaTypeObject>, mediaTypes: string[]): BodyMedia {
  const schemaMediaType = mediaTypes.find((type) => content[type]!.schema) ?? mediaTypes[0]!;
  const media = content[schemaMediaType]!;
  const encoding = isObject(media.encoding) ? (media.encoding as Record<string, { contentType?: unknown }>) : {};
  const files: FormFileField[] = [];
  const jsonFields: string[] = [];
  // Only multipart carries files; a urlencoded form's binary field is text.
  const carriesFiles = essenceOf(schemaMediaType) === MULTIPART;
  for (const { name, schema: resolved, required } of propertiesOf(document, media.schema)) {
    const items = resolved.type === 'array' ? resolved.items === undefined ? {} : deref<SchemaObject>(document, resolved.items as SchemaObject | Reference) : undefined;
    const file = fileMediaTypes(items ?? resolved);
    if (carriesFiles && file) {
      const declared = typeof encoding[name]?.contentType === 'string' ? (encoding[name].contentType as string).split(',').map((type) => type.trim()).filter(Boolean) : [];
      files.push({ name, multiple: items !== undefined, required, mediaTypes: declared.length > 0 ? declared : file.mediaTypes });
    } else if (isStructured(items ?? resolved)) jsonFields.push(name);
  }
  return { kind: 'form', mediaTypes, schemaMediaType, files, jsonFields };
}

/** A file's schema: a binary string, or 3.1's string with `contentMediaType` (not base64 text, which is a field). */
function fileMediaTypes(schema: SchemaObject): { mediaTypes: string[] } | undefined {
  if (scalarTypeOf(schema) !== 'string' && schema.type !== undefined) return undefined;
  if (schema.format === 'binary') return { mediaTypes: [] };
  if (typeof schema.contentMediaType === 'string' && schema.contentEncoding === undefined) return { mediaTypes: [schema.contentMediaType] };
  return undefined;
}

/** An object, or an array of objects: a form field that carries JSON text (OpenAPI's default `application/json` encoding). */
function isStructured(schema: SchemaObject): boolean {
  return schema.type === 'object' || isObject(schema.properties) || Array.isArray(schema.allOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
}

export type AnswerMedia =
  | { kind: 'json'; mediaType: string }
  | { kind: 'none' }
  | { kind: 'file'; mediaTypes: string[] }
  | {
      kind: 'events';
      mediaType: string;
      /** The schema describes the whole event (`data`, `event`, `id`…): its `data` is what events carry. */
      enveloped: boolean;
      /** `data` is text as it is, not JSON. */
      text: boolean;
    };

/** What a success answers, by its `content`: JSON where it is a choice, else an event stream, else a file. */
export function answerMediaOf(document: OpenApiDocument, content: Record<string, MediaTypeObject> | undefined): AnswerMedia {
  const mediaTypes = Object.keys(content ?? {});
  if (mediaTypes.length === 0) return { kind: 'none' };
  const json = mediaTypes.find(isJsonMediaType);
  if (json) return { kind: 'json', mediaType: json };
  const events = mediaTypes.find((type) => essenceOf(type) === EVENT_STREAM);
  if (events) return { kind: 'events', mediaType: events, ...eventDataOf(document, content![events]!) };
  return { kind: 'file', mediaTypes };
}

/** How an event's data is described: by the schema (of one event, as specs write it before 3.2's `itemSchema`). */
function eventDataOf(document: OpenApiDocument, media: MediaTypeObject): { enveloped: boolean; text: boolean } {
  const schema = media.schema && deref<SchemaObject>(document, media.schema);
  if (!schema) return { enveloped: false, text: true };
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  if (properties && 'data' in properties && Object.keys(properties).every((name) => EVENT_FIELDS.has(name))) {
    const data = deref<SchemaObject>(document, properties.data as SchemaObject | Reference);
    return { enveloped: true, text: data !== undefined && scalarTypeOf(data) === 'string' };
  }
  return { enveloped: false, text: scalarTypeOf(schema) === 'string' };
}

const EVENT_FIELDS = new Set(['data', 'event', 'id', 'retry']);
