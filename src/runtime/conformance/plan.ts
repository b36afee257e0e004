/**
 * The conformance plan (`test/conformance/api.json`): what the suite knows of
 * an API. This is the one definition of its shape: specforge's conformance
 * target builds the plan against it and writes this file, as it is, into
 * every generated project, where the suite reads the plan through it. So it
 * imports nothing.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** A query parameter's value: a scalar, or the values of an array parameter. */
export type QueryValue = string | number | boolean | (string | number | boolean)[];

export type OperationKind = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete' | 'other';

export interface ResourcePlan {
  shape: 'flat' | 'typed';
  idParam?: string;
  /** The resource its items live under. */
  parent?: string;
  /** The path parameters that place an item under its parents, outermost first. */
  parentParams: string[];
  /**
   * The parent's item parameters those give, where they name only the last of
   * them (`/books/{book_id}/reviews` names a book, not its author); else by position.
   */
  parentItemParams?: string[];
  /** Its operations by kind. */
  operations: Partial<Record<Exclude<OperationKind, 'other'>, string>>;
  /** Where it has no JSON create: the upload that creates its items (`sample` holds the form's other fields). */
  upload?: UploadPlan;
  /** A valid create body. */
  sample?: Json;
  /** Where there is none: the keyword that defeated the sampler and where it stands (`` `pattern` at #/…/isbn ``). */
  defeat?: string;
  /** Its plain string fields: varied per create, so unique constraints hold. */
  variable?: { name: string; maxLength: number }[];
  /** Values for parent path parameters where the API describes no parent resource to create. */
  scope?: Record<string, string | number>;
  /** Those of them no value could be built for (`path.digest`: a pattern the suite cannot follow), missing from `scope`. */
  unbuilt?: string[];
  /** An id no item has (valid for the id's schema); none where no value fits its pattern. */
  unknownId?: string | number;
  /** Ids no parent item has, per parent path parameter; a parameter no value fits is missing. */
  unknownParents: Record<string, string | number>;
  createdField?: string;
  updatedField?: string;
  /** Fields a write names whose value the service does not keep: what it answers there is its own. */
  serverFields?: string[];
  /** The field an item's path names it by, where it is not `id` (`/variables/{name}`): what a create wrote there addresses the item. */
  keyField?: string;
  /** Values for the key field, one per create in turn, where the variation of plain strings does not reach it (a pattern, an integer). */
  keys?: Json[];
}

/** A create whose body is a form with files, or a file: what the suite sends it. */
export interface UploadPlan {
  operationId: string;
  /** `form`: the sample's fields and the files as multipart/form-data; `file`: the main file is the body. */
  body: 'form' | 'file';
  /** The files sent: the main one first, then every other required, each of a media type the operation takes. */
  files: { name: string; mediaType: string }[];
  /** The operation that downloads the item's main file, where the API has one. */
  download?: string;
}

export interface OperationPlan {
  method: string;
  path: string;
  kind: OperationKind;
  status: number;
  resource?: string;
  hasData: boolean;
  /** `schemes`: the credentials it takes alone; `scopes`: what a credential needs (403 without). */
  security: { public: boolean; schemes: ('bearer' | 'apiKey')[]; scopes: string[] };
  body?: { contentType: string; sample: Json };
  paging?: { style: 'cursor' | 'offset'; defaultLimit: number; maxLimit: number };
  /** Query parameters it declares. */
  query: string[];
  /**
   * A valid value for each required query parameter, as the `name=value` pairs
   * its style writes it in (percent-encoded, ready to join with `&`): sent with
   * every request unless a check sends its own.
   */
  requiredQuery?: Record<string, string[]>;
  /**
   * Its required inputs the suite cannot build a valid value for (`body`,
   * `query.digest`: a pattern it cannot follow): the checks that need the
   * service past validation skip, rather than send what breaks the schema.
   */
  unbuilt?: string[];
  /** Where its body is among them: the keyword that defeated the sampler and where it stands. */
  defeat?: string;
}

/** A body that breaks one rule of its schema, the field it names, and the per-field code the conventions give that failure. */
export interface Violation {
  rule: string;
  field: string;
  code: string;
  body: Json;
}

export interface ApiPlan {
  title: string;
  basePath: string;
  versioning: { url: boolean; header: boolean; version: number };
  bodyLimit: number;
  /** The status of a request that breaks the schema: 422 (or 400, as configured). */
  validationStatus: number;
  rateLimit: { limit: number; windowSeconds: number };
  apiKeyHeader: string;
  scopes: string[];
  resources: Record<string, ResourcePlan>;
  operations: Record<string, OperationPlan>;
}

/** A query parameter the suite can draw random values for. */
export interface QueryInput {
  name: string;
  required: boolean;
  schema: object;
}

/** `schemas.json`: the schemas answers are validated against and random requests drawn from. */
export interface SuiteSchemas {
  dialect: 'draft-07' | '2020-12';
  /** The merged spec's schemas as answers read them: the `$ref`s of `responses` point into it. */
  registry: object;
  /** The same as requests read them: the `$ref`s of `requests` point into it. */
  requestRegistry: object;
  /** Each operation's success answer. */
  responses: Record<string, object>;
  /** Each operation's inputs: its JSON body, the query parameters the suite can write, its path parameters. */
  requests: Record<string, { body?: object; query?: QueryInput[]; path?: Record<string, object> }>;
}
