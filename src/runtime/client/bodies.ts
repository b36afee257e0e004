/**
 * Request bodies as an operation's media type wants them: JSON, a multipart
 * form (files as parts), a URL-encoded form, or raw bytes. No dependencies:
 * `FormData`, `URLSearchParams` and `Blob` are global in Node 20+ and browsers.
 */

/** How a request body travels: `json` unless the operation says otherwise. */
export type BodyEncoding = 'json' | 'multipart' | 'urlencoded' | 'bytes';

/** A raw body (`application/octet-stream`, `image/png`…), sent as it is. */
export type Bytes = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

/** What `fetch` is given as a body (spelled out: Node's types do not declare the DOM's `BodyInit`). */
export type BodyInit = Bytes | FormData | URLSearchParams;

/** The body as `fetch` sends it, and its `Content-Type` (none for a multipart form: fetch writes the boundary). */
export function encodeBody(
  body: unknown,
  encoding: BodyEncoding,
  mediaType?: string,
): { body: BodyInit; contentType?: string } {
  switch (encoding) {
    case 'json':
      return { body: JSON.stringify(body), contentType: mediaType ?? 'application/json' };
    case 'multipart':
      return { body: formDataOf(body) };
    case 'urlencoded':
      return { body: searchParamsOf(body), contentType: 'application/x-www-form-urlencoded' };
    case 'bytes':
      return bytesOf(body, mediaType);
  }
}

/** A stream can be read once only: a request with one cannot be sent again. */
export function isStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof (value as ReadableStream | undefined)?.getReader === 'function';
}

function formDataOf(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [name, value] of fieldsOf(body, 'multipart')) {
    if (value instanceof Blob) form.append(name, value, fileName(value));
    else if (isBinary(value)) form.append(name, new Blob([value as ArrayBuffer]), 'blob');
    else form.append(name, text(value, 'multipart'));
  }
  return form;
}

function searchParamsOf(body: unknown): URLSearchParams {
  if (body instanceof URLSearchParams) return body;
  const params = new URLSearchParams();
  for (const [name, value] of fieldsOf(body, 'urlencoded')) {
    if (value instanceof Blob || isBinary(value))
      throw new TypeError(
        `The URL-encoded field ${name} is a file; a form with files is sent as multipart/form-data.`,
      );
    params.append(name, text(value, 'urlencoded'));
  }
  return params;
}

/**
 * A form's fields, one pair per value: an array's items repeat its name,
 * `undefined` and `null` are left out (as JSON leaves out undefined members).
 */
function fieldsOf(body: unknown, encoding: BodyEncoding): [string, unknown][] {
  if (!isPlainObject(body))
    throw new TypeError(`A ${encoding} body is an object of fields, not ${describe(body)}.`);
  return Object.entries(body).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value])
      .filter((item) => item !== undefined && item !== null)
      .map((item): [string, unknown] => [name, item]),
  );
}

/** A field's text: a primitive as `String` writes it, a date in ISO form, any other object as JSON. */
function text(value: unknown, encoding: BodyEncoding): string {
  if (isStream(value))
    throw new TypeError(`A ${encoding} field cannot be a stream: read it into a Blob first.`);
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A File keeps its name; a bare Blob is named `blob`, as `FormData` names it. */
function fileName(blob: Blob): string {
  const name = (blob as { name?: unknown }).name;
  return typeof name === 'string' ? name : 'blob';
}

function bytesOf(
  body: unknown,
  mediaType: string | undefined,
): { body: BodyInit; contentType: string } {
  if (!(body instanceof Blob || isBinary(body) || isStream(body) || typeof body === 'string'))
    throw new TypeError(
      `A raw body is a Blob, an ArrayBuffer, a typed array, a ReadableStream or a string, not ${describe(body)}.`,
    );
  const type =
    mediaType !== undefined && !mediaType.includes('*')
      ? mediaType
      : (body instanceof Blob && body.type) || 'application/octet-stream';
  return { body: body as BodyInit, contentType: type };
}

/** Checked by tag and `isView`, not `instanceof`: buffers from another realm (a worker, a VM context) qualify too. */
function isBinary(value: unknown): value is ArrayBuffer | ArrayBufferView {
  return (
    ArrayBuffer.isView(value) || Object.prototype.toString.call(value) === '[object ArrayBuffer]'
  );
}

/** An object literal's kind, from any realm: its prototype is an `Object.prototype`, or null. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return `a ${typeof value}`;
  return `a ${(value as object).constructor?.name ?? 'object'}`;
}
