-- `search` matches substrings through trigram indexes.
create extension if not exists pg_trgm;

-- notes
create table "notes" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "text" text collate "C",
  "_extra" json,
  "_search" text generated always as (lower(coalesce("text"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id")
);
create index "notes_text_idx" on "notes" ("text", "_seq");
create index "notes_text_desc_idx" on "notes" ("text" desc nulls last, "_seq");
create index "notes_search_idx" on "notes" using gin ("_search" gin_trgm_ops);
