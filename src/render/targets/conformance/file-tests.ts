/**
 * The suite's round trip of an upload: where the default store keeps a
 * collection's files (../uploads.ts), the create is sent a file of a media
 * type both ends declare, and its download must give back the same bytes
 * and type (`checks.keepsUploadedFile`).
 */
import type { ApiModel, FormFileField, OperationModel, ResourceModel } from '../../../model/index.js';
import { deref, isObject, type OpenApiDocument, type OperationObject, type RequestBodyObject } from '../../../openapi/document.js';
import type { FileRoundTrip } from '../../../runtime/conformance/checks.js';
import type { JsonObject } from '../../../runtime/conformance/plan.js';
import { mediaTypeMatches } from '../../../runtime/server/generated/conventions/body.js';
import { resourceUploadsOf } from '../uploads.js';
import { requestSampleOf } from './sample.js';

/** Bytes of any kind: what a file whose types nobody declared is sent as. */
const UNTYPED = 'application/octet-stream';

/** The round trip of the operation's upload; undefined where it is no create that keeps files, or the suite cannot build one. */
export function fileRoundTripOf(model: ApiModel, document: OpenApiDocument, operation: OperationModel, resource: ResourceModel | undefined): FileRoundTrip | undefined {
  const body = operation.requestBody;
  if (!resource || !(body?.form || body?.bytes)) return undefined;
  const uploads = resourceUploadsOf(resource, model.operations);
  if (uploads?.roles.get(operation.operationId) !== 'createWithFiles') return undefined;
  const download = model.operations.find((candidate) => uploads.roles.get(candidate.operationId) === 'fileOf');
  if (!download) return undefined;
  const accepted = body.form ? (uploads.files.find((file) => file.name === uploads.main)?.mediaTypes ?? []) : body.bytes!;
  const mediaType = sharedMediaType(accepted, uploads.answers);
  if (mediaType === undefined) return undefined;
  const fields = body.form ? formFieldsOf(document, operation, uploads.files) : {};
  if (fields === undefined) return undefined;
  const others = uploads.files.filter((file) => file.required && file.name !== uploads.main).map((file) => ({ name: file.name, mediaType: concrete(file.mediaTypes) ?? UNTYPED }));
  return { download: download.operationId, body: body.form ? 'form' : 'file', fields, files: [{ name: uploads.main, mediaType }, ...others], main: uploads.main };
}

/** A concrete type the upload takes (none declared: any) and the download answers (none declared: any). */
function sharedMediaType(accepted: string[], answered: string[]): string | undefined {
  const takes = (type: string) => accepted.length === 0 || mediaTypeMatches(type, accepted);
  const answers = (type: string) => answered.length === 0 || mediaTypeMatches(type, answered);
  const candidates = [...answered, ...accepted, UNTYPED].filter((type) => !type.includes('*'));
  return candidates.find((type) => takes(type) && answers(type));
}

const concrete = (types: string[]) => types.find((type) => !type.includes('*'));

/** Valid values of the form's fields that are not files; undefined where its schema defeats the sampler. */
function formFieldsOf(document: OpenApiDocument, operation: OperationModel, files: FormFileField[]): JsonObject | undefined {
  const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
  const body = source?.requestBody && deref<RequestBodyObject>(document, source.requestBody);
  const schema = body?.content[operation.requestBody!.form!.schemaMediaType]?.schema;
  if (schema === undefined) return {};
  const { sample } = requestSampleOf(document, schema);
  if (!isObject(sample)) return undefined;
  const fileNames = new Set(files.map((file) => file.name));
  return Object.fromEntries(Object.entries(sample as JsonObject).filter(([name]) => !fileNames.has(name)));
}
