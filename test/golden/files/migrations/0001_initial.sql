-- `search` matches substrings through trigram indexes.
create extension if not exists pg_trgm;

-- documents
create table "documents" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "title" text collate "C",
  "pages" bigint,
  "tags" jsonb,
  "size" bigint,
  "media_type" text collate "C",
  "filename" text collate "C",
  "attachments" bigint,
  "_extra" json,
  "_search" text generated always as (lower(coalesce("title"::text, '') || ' ' || coalesce("tags"::text, '') || ' ' || coalesce("media_type"::text, '') || ' ' || coalesce("filename"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id")
);
create index "documents_title_idx" on "documents" ("title", "_seq");
create index "documents_title_desc_idx" on "documents" ("title" desc nulls last, "_seq");
create index "documents_pages_idx" on "documents" ("pages", "_seq");
create index "documents_pages_desc_idx" on "documents" ("pages" desc nulls last, "_seq");
create index "documents_size_idx" on "documents" ("size", "_seq");
create index "documents_size_desc_idx" on "documents" ("size" desc nulls last, "_seq");
create index "documents_media_type_idx" on "documents" ("media_type", "_seq");
create index "documents_media_type_desc_idx" on "documents" ("media_type" desc nulls last, "_seq");
create index "documents_filename_idx" on "documents" ("filename", "_seq");
create index "documents_filename_desc_idx" on "documents" ("filename" desc nulls last, "_seq");
create index "documents_attachments_idx" on "documents" ("attachments", "_seq");
create index "documents_attachments_desc_idx" on "documents" ("attachments" desc nulls last, "_seq");
create index "documents_search_idx" on "documents" using gin ("_search" gin_trgm_ops);

-- imports
create table "imports" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "_extra" json,
  primary key ("id")
);

-- uploaded files: the bytes of each item's files, by collection, item and field.
create table "specforge_files" (
  "collection" text not null,
  "item" text not null,
  "field" text not null,
  "position" integer not null,
  "media_type" text not null,
  "filename" text not null,
  "size" bigint not null,
  "sha256" text not null,
  "bytes" bytea not null,
  primary key ("collection", "item", "field", "position")
);
