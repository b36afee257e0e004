/**
 * How the default store keeps a collection's files (`store/uploads.ts` at
 * run time): which of its operations create an item from a form or a file,
 * download its main file, replace it or delete the item with its files, and
 * which of the item's fields describe the file.
 */
import type { FieldModel, ResourceModel } from '../../../model/index.js';
import type { FilePlan } from '../../../runtime/server/store/uploads.js';
import type { CollectionView, RouteView } from './view.js';

/** What the default handler does with the item's files. */
export type FileRole = 'createWithFiles' | 'fileOf' | 'replaceFile' | 'takeWithFiles';

export interface CollectionUploads {
  plan: FilePlan;
  roles: Map<RouteView, FileRole>;
}

/** Where the body is the file itself, the field it is kept as. */
const BODY_FIELD = 'content';

/** The collection's uploads; undefined where none of its operations takes a file. */
export function collectionUploadsOf(resource: ResourceModel, collection: CollectionView, routes: RouteView[]): CollectionUploads | undefined {
  const create = routes.find((route) => route.kind === 'create' && (route.formUpload?.files.length || route.fileUpload));
  const below = (route: RouteView) => resource.itemPath !== undefined && belowItem(route.path, resource.itemPath);
  const replace = routes.find((route) => route.fileUpload && route.method === 'put' && below(route));
  if (!create && !replace) return undefined;
  const files = create?.formUpload?.files ?? [];
  const main = files.find((file) => !file.multiple && file.required) ?? files.find((file) => !file.multiple) ?? files[0];
  const roles = new Map<RouteView, FileRole>();
  if (create) roles.set(create, 'createWithFiles');
  if (replace) roles.set(replace, 'replaceFile');
  for (const route of routes) {
    if (route.fileAnswer && route.method === 'get' && below(route)) roles.set(route, 'fileOf');
    else if (route.kind === 'delete' && route.storeMethod) roles.set(route, 'takeWithFiles');
  }
  return {
    plan: {
      collection: collection.variable,
      idParam: collection.idParam,
      key: collection.keyField ?? 'id',
      fileFields: files.map((file) => file.name),
      main: main?.name ?? BODY_FIELD,
      describedBy: describingFields(resource.fields),
    },
    roles,
  };
}

/** The item's path, or a path of fixed segments below it (`/documents/{id}/content`). */
function belowItem(path: string, itemPath: string): boolean {
  return path === itemPath || (path.startsWith(`${itemPath}/`) && !path.slice(itemPath.length).includes('{'));
}

/** Field names, compared without case, `_` and `-`, that hold what of a file. */
const DESCRIBING: Record<keyof FilePlan['describedBy'], { names: string[]; types: string[] }> = {
  size: { names: ['size', 'filesize', 'sizebytes', 'bytesize', 'bytes', 'contentlength'], types: ['integer', 'number'] },
  mediaType: { names: ['mediatype', 'contenttype', 'mimetype', 'mime'], types: ['string'] },
  filename: { names: ['filename', 'originalfilename', 'originalname'], types: ['string'] },
  sha256: { names: ['sha256', 'checksumsha256', 'sha256checksum'], types: ['string'] },
};

function describingFields(fields: FieldModel[]): FilePlan['describedBy'] {
  const described: FilePlan['describedBy'] = {};
  const plain = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  for (const [property, { names, types }] of Object.entries(DESCRIBING) as [keyof FilePlan['describedBy'], (typeof DESCRIBING)['size']][]) {
    const field = fields.find((candidate) => names.includes(plain(candidate.name)) && types.includes(candidate.type ?? ''));
    if (field) described[property] = field.name;
  }
  return described;
}
