/**
 * Uploads in the suite: where the default store keeps a collection's files
 * (../uploads.ts) and the API has no JSON create, the suite creates items by
 * uploading a file of a media type both ends declare, and its round trip
 * (`checks.keepsUploadedFile`) expects the download to give back the same
 * bytes, as that type.
 */
import type { ApiModel, FormFileField, OperationModel, ResourceModel } from '../../../model/index.js';
import { deref, isObject, type OpenApiDocument, type OperationObject, type RequestBodyObject } from '../../../openapi/document.js';
import type { JsonObject, UploadPlan } from '../../../runtime/conformance/plan.js';
import { mediaTypeMatches } from '../../../runtime/server/generated/conventions/body.js';
import { resourceUploadsOf } from '../uploads.js';
import { plainStringsOf, requestSampleOf } from './sample.js';

/** Bytes of any kind: what a file whose types nobody declared is sent as. */
const UNTYPED = 'application/octet-stream';

/**
 * How the suite creates the resource's items where its only create is an
 * upload the store keeps: what it sends (the form's other fields as
 * `sample`), and the download that gives the main file back.
 */
export function uploadPlanOf(model: ApiModel, document: OpenApiDocument, resource: ResourceModel): { upload: UploadPlan; sample: JsonObject; variable: { name: string; maxLength: number }[] } | undefined {
  const uploads = resourceUploadsOf(resource, model.operations);
  const create = uploads && model.operations.find((operation) => uploads.roles.get(operation.operationId) === 'createWithFiles');
  const body = create?.requestBody;
  if (!uploads || !body || !create.success.contentType) return undefined;
  const download = model.operations.find((operation) => uploads.roles.get(operation.operationId) === 'fileOf');
  const accepted = body.form ? (uploads.files.find((file) => file.name === uploads.main)?.mediaTypes ?? []) : body.bytes!;
  const mediaType = sharedMediaType(accepted, uploads.answers);
  const schema = body.form ? formSchemaOf(document, create) : undefined;
  const fields = schema === undefined ? {} : formFieldsOf(document, schema, uploads.files);
  if (mediaType === undefined || fields === undefined) return undefined;
  const others = uploads.files.filter((file) => file.required && file.name !== uploads.main).map((file) => ({ name: file.name, mediaType: sentType(file.mediaTypes) }));
  return {
    upload: { operationId: create.operationId, body: body.form ? 'form' : 'file', files: [{ name: uploads.main, mediaType }, ...others], ...(download ? { download: download.operationId } : {}) },
    sample: fields,
    variable: schema === undefined ? [] : plainStringsOf(document, schema).filter(({ name }) => name in fields),
  };
}

/** A concrete type the upload takes (none declared: any) and the download answers (none declared: any). */
function sharedMediaType(accepted: string[], answered: string[]): string | undefined {
  const takes = (type: string) => accepted.length === 0 || mediaTypeMatches(type, accepted);
  const answers = (type: string) => answered.length === 0 || mediaTypeMatches(type, answered);
  const candidates = [...answered, ...accepted, UNTYPED].map(concreteOf);
  return candidates.find((type) => takes(type) && answers(type));
}

/** Where a range is declared (`image/*`), a type in it that is common (`image/png`). */
const COMMON_SUBTYPES: Record<string, string> = { image: 'png', text: 'plain', audio: 'mpeg', video: 'mp4', application: 'octet-stream' };

function concreteOf(mediaType: string): string {
  const [type = '*', subtype = '*'] = mediaType.split(';')[0]!.trim().toLowerCase().split('/');
  if (type === '*') return UNTYPED;
  return subtype === '*' ? `${type}/${COMMON_SUBTYPES[type] ?? 'octet-stream'}` : mediaType;
}

/** The type a file is sent as, where it is not the main one: one its field takes. */
const sentType = (types: string[]) => (types.length === 0 ? UNTYPED : concreteOf(types[0]!));

function formSchemaOf(document: OpenApiDocument, operation: OperationModel): unknown {
  const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
  const body = source?.requestBody && deref<RequestBodyObject>(document, source.requestBody);
  return body?.content[operation.requestBody!.form!.schemaMediaType]?.schema;
}

/** Valid values of the form's fields that are not files; undefined where its schema defeats the sampler. */
function formFieldsOf(document: OpenApiDocument, schema: unknown, files: FormFileField[]): JsonObject | undefined {
  const { sample } = requestSampleOf(document, schema);
  if (!isObject(sample)) return undefined;
  const fileNames = new Set(files.map((file) => file.name));
  return Object.fromEntries(Object.entries(sample as JsonObject).filter(([name]) => !fileNames.has(name)));
}
