/**
 * The view model: everything a template may print, precomputed from the
 * merged spec. Templates never read the spec itself.
 */
import type { Config, PagingConfig, ResourceShape } from '../config.js';
import type { ErrorKind } from '../conventions/errors.js';
import type { OperationKind } from '../openapi/classify.js';
import type { HttpMethod, Reference, SchemaObject } from '../openapi/document.js';
import type { FormFileField } from '../openapi/media.js';

export type { FormFileField };

export interface ApiModel {
  title: string;
  /** `info.version` as written. */
  version: string;
  openapi: string;
  /** Path prefix every route is served under, e.g. `/api/v1` (no trailing slash). */
  basePath: string;
  config: Config;
  securitySchemes: SecuritySchemeModel[];
  resources: ResourceModel[];
  operations: OperationModel[];
  /** The error catalog, in status order. */
  errors: ErrorKind[];
}

export interface SecuritySchemeModel {
  name: string;
  kind: 'bearer' | 'apiKey' | 'other';
  /** Header that carries the credential (`Authorization`, `X-API-Key`). */
  header?: string;
}

export interface SecurityModel {
  /** True when a request without credentials is accepted. */
  public: boolean;
  /** Any one alternative satisfies the requirement; each lists schemes that must all pass. */
  alternatives: { scheme: string; scopes: string[] }[][];
}

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: SchemaObject | Reference;
  /** How its value is written in the request (OpenAPI 3.x, "Style Values"): as declared, or its location's default. */
  style: ParameterStyle;
  explode: boolean;
  /** Set where its value is an array or an object: the values a style writes differently. */
  structure?: 'array' | 'object';
}

/** OpenAPI's parameter styles: `form`, `spaceDelimited`, `pipeDelimited` and `deepObject` in the query, `simple` in paths and headers, `label` and `matrix` in paths. */
export type ParameterStyle = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple' | 'label' | 'matrix';

export interface ParametersByLocation {
  path: ParameterModel[];
  query: ParameterModel[];
  header: ParameterModel[];
  cookie: ParameterModel[];
}

export interface OperationModel {
  operationId: string;
  /** camelCase of the operationId, distinct among operations: the method name in clients and handlers. */
  name: string;
  method: HttpMethod;
  /** Upper-case method, for printing. */
  httpMethod: string;
  /** The path as the spec writes it, `/authors/{author_id}`. */
  path: string;
  /** The same in router syntax, `/authors/:author_id` (`{base}...{head}` within a segment of text). */
  routePath: string;
  kind: OperationKind;
  /** Key of the resource it acts on (see ResourceModel.key). */
  resource: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  parameters: ParametersByLocation;
  /** PascalCase of the operationId, prefix of the operation's type names (distinct with every suffix). */
  typeName: string;
  /** `jsonContentType`: the body's JSON media type, when it has one; else `form` or `bytes`, when it is one (openapi/media.ts). */
  requestBody?: {
    required: boolean;
    contentTypes: string[];
    jsonContentType?: string;
    form?: FormModel;
    /** A body that is a file itself: the media types it may have. */
    bytes?: string[];
  };
  /**
   * The first 2xx response; `contentType` is its JSON media type, when it has a JSON body;
   * `file`, the media types of a file it answers; `events`, its event stream.
   * `optionalData`: the spec's own envelope leaves `data` optional, though the service always sends it.
   */
  success: { status: number; contentType?: string; optionalData?: true; file?: { mediaTypes: string[] }; events?: EventsModel };
  /** Declared statuses, in order. */
  statuses: string[];
  errors: ErrorKind[];
  paging?: PagingConfig;
  resourceShape: ResourceShape;
  cacheControl: string;
  security: SecurityModel;
}

/** A form body: its media types, the fields that take files and those that carry JSON text. */
export interface FormModel {
  mediaTypes: string[];
  /** The media type whose schema describes it. */
  schemaMediaType: string;
  files: FormFileField[];
  jsonFields: string[];
}

/** A `text/event-stream` answer: the schema describes each event's `data` (`enveloped`: the whole event), as JSON or as `text`. */
export interface EventsModel {
  mediaType: string;
  enveloped: boolean;
  text: boolean;
}

export interface FieldModel {
  name: string;
  type?: string;
  required: boolean;
  readOnly: boolean;
  sortable: boolean;
  filterable: boolean;
  /** An enum's values, in the order the schema declares them: the order it sorts in. */
  enum?: unknown[];
}

export interface ResourceModel {
  /** Its collection segments joined, `authors/books`: unique in the API. */
  key: string;
  /** Shortest unique label, `books` (or `authors-books` where `books` is ambiguous), as the spec spells it: for comments and data only. */
  name: string;
  /** Its file name without extension (`src/handlers/<fileName>.ts`…): portable, distinct case-insensitively. */
  fileName: string;
  /** camelCase binding: its handler object, its store collection. */
  identifier: string;
  /** PascalCase prefix of its handler interface and types namespace (`BooksHandlers`, `BooksTypes`). */
  pascalName: string;
  /** Singular PascalCase name of its item type, `Book`. */
  typeName: string;
  /** The resource kind used in the typed shape's `type`. */
  type: string;
  collectionPath?: string;
  itemPath?: string;
  /** The id parameter(s) of the item path. */
  idParams: string[];
  /** Parameters its collection path ends in (`collection` of `/fields/{collection}`): they place items as a parent's ids do. */
  scopeParams: string[];
  parents: { collection: string; idParams: string[] }[];
  /**
   * Keys of top-level paths that reach the same items without naming their
   * parents (`books` of `/books` and `/books/{book_id}` for `authors/books`):
   * their operations are the resource's, and a child of theirs (`books/reviews`) is its child.
   */
  reachedAs?: string[];
  shape: ResourceShape;
  /** One object with no id (`/settings`, `/repos/{owner}/{repo}/pages`): read, replaced, updated or deleted whole. */
  singleton: boolean;
  fields: FieldModel[];
  createdField?: string;
  updatedField?: string;
  operations: string[];
  /** What its collection's path item asks of the default store (`x-specforge.store`). */
  store?: StoreSettings;
}

export interface StoreSettings {
  /** Fields, alone or together, that no two items (under one parent) share: a write that would is 409. */
  unique: string[][];
  /** Deleting a parent that has items: refused (409) or the items go with it. */
  onParentDelete: 'refuse' | 'cascade';
}
