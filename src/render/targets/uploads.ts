/**
 * Where the default store keeps a collection's files (`store/uploads.ts` at
 * run time), as the service and the suite both read it: which operations
 * create an item from a form or a file, download its file, replace it, or
 * delete the item with its files; and which of the item's fields describe
 * the file.
 */
import type { FieldModel, FormFileField, OperationModel, ResourceModel } from '../../model/index.js';
import { filePathOf, isAtOrBelowItem, type FileRoute } from '../../openapi/file-paths.js';
import type { FilePlan } from '../../runtime/server/store/uploads.js';
import { storedKindOf } from './resource-types.js';

/** The function of `store/uploads.ts` an operation's default handler calls. */
export type FileRole = 'createWithFiles' | 'fileOf' | 'replaceFile' | 'takeWithFiles';

export interface ResourceUploads {
  /** By operationId. */
  roles: Map<string, FileRole>;
  /** The create's form fields that take files; none where its body is the file. */
  files: FormFileField[];
  /** The file a download answers and a PUT of bytes replaces. */
  main: string;
  /** The item's fields the main file fills. */
  describedBy: FilePlan['describedBy'];
  /** The media types its download declares (none where there is no download). */
  answers: string[];
}

/** Where the body is the file itself, the field it is kept as. */
const BODY_FIELD = 'content';

/** The resource's uploads; undefined where none of its operations takes a file into the store. */
export function resourceUploadsOf(resource: ResourceModel, operations: OperationModel[]): ResourceUploads | undefined {
  if (resource.singleton || resource.itemPath === undefined) return undefined;
  const itemPath = resource.itemPath;
  const own = operations.filter((operation) => operation.resource === resource.key);
  const create = own.find((operation) => storedKindOf(operation, resource) === 'create' && createsWithFiles(operation));
  const fileRoutes = own.flatMap((operation) => {
    const method: FileRoute['method'] | undefined = operation.method === 'get' && operation.success.file ? 'get' : operation.method === 'put' && operation.requestBody?.bytes ? 'put' : undefined;
    return method && isAtOrBelowItem(operation.path, itemPath) ? [{ operation, path: operation.path, method }] : [];
  });
  const filePath = filePathOf(fileRoutes);
  const at = (method: string) => fileRoutes.find((route) => route.path === filePath && route.method === method)?.operation;
  const [download, replace] = [at('get'), at('put')];
  if (!create && !replace) return undefined;
  const files = create?.requestBody?.form?.files ?? [];
  const main = files.find((file) => !file.multiple && file.required) ?? files.find((file) => !file.multiple) ?? files[0];
  const roles = new Map<string, FileRole>();
  for (const operation of own) {
    if (operation === create) roles.set(operation.operationId, 'createWithFiles');
    else if (operation === replace) roles.set(operation.operationId, 'replaceFile');
    else if (operation === download) roles.set(operation.operationId, 'fileOf');
    else if (storedKindOf(operation, resource) === 'delete') roles.set(operation.operationId, 'takeWithFiles');
  }
  return { roles, files, main: main?.name ?? BODY_FIELD, describedBy: describingFields(resource.fields), answers: download?.success.file?.mediaTypes ?? [] };
}

/** A form with a file field, or a body that is the file. */
function createsWithFiles(operation: OperationModel): boolean {
  const body = operation.requestBody;
  return (body?.form?.files.length ?? 0) > 0 || body?.bytes !== undefined;
}

/** Field names, compared without case, `_` and `-`, that hold what of a file. */
const DESCRIBING: Record<keyof FilePlan['describedBy'], { names: string[]; types: string[] }> = {
  size: { names: ['size', 'filesize', 'sizebytes', 'bytesize', 'bytes', 'contentlength'], types: ['integer', 'number'] },
  mediaType: { names: ['mediatype', 'contenttype', 'mimetype', 'mime'], types: ['string'] },
  filename: { names: ['filename', 'originalfilename', 'originalname'], types: ['string'] },
  sha256: { names: ['sha256', 'checksumsha256', 'sha256checksum'], types: ['string'] },
};

/** The item's fields that describe its file: read-only ones, which no client sets. */
function describingFields(fields: FieldModel[]): FilePlan['describedBy'] {
  const described: FilePlan['describedBy'] = {};
  const plain = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  for (const [property, { names, types }] of Object.entries(DESCRIBING) as [keyof FilePlan['describedBy'], (typeof DESCRIBING)['size']][]) {
    const field = fields.find((candidate) => candidate.readOnly && names.includes(plain(candidate.name)) && types.includes(candidate.type ?? ''));
    if (field) described[property] = field.name;
  }
  return described;
}
