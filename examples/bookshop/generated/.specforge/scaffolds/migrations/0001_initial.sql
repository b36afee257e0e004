-- `search` matches substrings through trigram indexes.
create extension if not exists pg_trgm;

-- authors
create table "authors" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "name" text collate "C",
  "bio" text collate "C",
  "country" text collate "C",
  "created_at" timestamptz,
  "updated_at" timestamptz,
  "_extra" json,
  "_search" text generated always as (lower(coalesce("name"::text, '') || ' ' || coalesce("bio"::text, '') || ' ' || coalesce("country"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id")
);
create index "authors_name_idx" on "authors" ("name", "_seq");
create index "authors_name_desc_idx" on "authors" ("name" desc nulls last, "_seq");
create index "authors_bio_idx" on "authors" ("bio", "_seq");
create index "authors_bio_desc_idx" on "authors" ("bio" desc nulls last, "_seq");
create index "authors_country_idx" on "authors" ("country", "_seq");
create index "authors_created_at_idx" on "authors" ("created_at", "_seq");
create index "authors_created_at_desc_idx" on "authors" ("created_at" desc nulls last, "_seq");
create index "authors_updated_at_idx" on "authors" ("updated_at", "_seq");
create index "authors_updated_at_desc_idx" on "authors" ("updated_at" desc nulls last, "_seq");
create index "authors_search_idx" on "authors" using gin ("_search" gin_trgm_ops);

-- reviews
create table "reviews" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "book_id" text collate "C",
  "rating" bigint,
  "body" text collate "C",
  "created_at" timestamptz,
  "_extra" json,
  "_search" text generated always as (lower(coalesce("book_id"::text, '') || ' ' || coalesce("body"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id")
);
create index "reviews_book_id_idx" on "reviews" ("book_id", "_seq");
create index "reviews_book_id_desc_idx" on "reviews" ("book_id" desc nulls last, "_seq");
create index "reviews_rating_idx" on "reviews" ("rating", "_seq");
create index "reviews_rating_desc_idx" on "reviews" ("rating" desc nulls last, "_seq");
create index "reviews_body_idx" on "reviews" ("body", "_seq");
create index "reviews_body_desc_idx" on "reviews" ("body" desc nulls last, "_seq");
create index "reviews_created_at_idx" on "reviews" ("created_at", "_seq");
create index "reviews_created_at_desc_idx" on "reviews" ("created_at" desc nulls last, "_seq");
create index "reviews_search_idx" on "reviews" using gin ("_search" gin_trgm_ops);

-- genres
create table "genres" (
  "_seq" bigint generated always as identity,
  "id" text not null,
  "name" text collate "C",
  "_extra" json,
  "_search" text generated always as (lower(coalesce("name"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id")
);
create index "genres_name_idx" on "genres" ("name", "_seq");
create index "genres_name_desc_idx" on "genres" ("name" desc nulls last, "_seq");
create index "genres_search_idx" on "genres" using gin ("_search" gin_trgm_ops);

-- authors/books
create table "authors_books" (
  "_seq" bigint generated always as identity,
  "id" uuid not null,
  "author_id" uuid,
  "title" text collate "C",
  "isbn" text collate "C",
  "genre" text collate "C",
  "pages" bigint,
  "published_on" text collate "C",
  "in_print" boolean,
  "created_at" timestamptz,
  "updated_at" timestamptz,
  "_extra" json,
  "_search" text generated always as (lower(coalesce("title"::text, '') || ' ' || coalesce("isbn"::text, '') || ' ' || coalesce("genre"::text, '') || ' ' || coalesce("published_on"::text, '') || ' ' || coalesce("_extra"::text, ''))) stored,
  primary key ("id"),
  unique ("author_id", "id"),
  foreign key ("author_id") references "authors" ("id")
);
create index "authors_books_owner_idx" on "authors_books" ("author_id", "_seq");
create index "authors_books_title_idx" on "authors_books" ("author_id", "title", "_seq");
create index "authors_books_title_desc_idx" on "authors_books" ("author_id", "title" desc nulls last, "_seq");
create index "authors_books_isbn_idx" on "authors_books" ("author_id", "isbn", "_seq");
create index "authors_books_isbn_desc_idx" on "authors_books" ("author_id", "isbn" desc nulls last, "_seq");
create index "authors_books_genre_idx" on "authors_books" ("author_id", "genre", "_seq");
create index "authors_books_pages_idx" on "authors_books" ("author_id", "pages", "_seq");
create index "authors_books_pages_desc_idx" on "authors_books" ("author_id", "pages" desc nulls last, "_seq");
create index "authors_books_published_on_idx" on "authors_books" ("author_id", "published_on", "_seq");
create index "authors_books_published_on_desc_idx" on "authors_books" ("author_id", "published_on" desc nulls last, "_seq");
create index "authors_books_in_print_idx" on "authors_books" ("author_id", "in_print", "_seq");
create index "authors_books_in_print_desc_idx" on "authors_books" ("author_id", "in_print" desc nulls last, "_seq");
create index "authors_books_created_at_idx" on "authors_books" ("author_id", "created_at", "_seq");
create index "authors_books_created_at_desc_idx" on "authors_books" ("author_id", "created_at" desc nulls last, "_seq");
create index "authors_books_updated_at_idx" on "authors_books" ("author_id", "updated_at", "_seq");
create index "authors_books_updated_at_desc_idx" on "authors_books" ("author_id", "updated_at" desc nulls last, "_seq");
create index "authors_books_search_idx" on "authors_books" using gin ("_search" gin_trgm_ops);
