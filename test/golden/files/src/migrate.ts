/**
 * `npm run migrate`: applies the pending migrations of migrations/ to the
 * database DATABASE_URL names (the embedded one in DATA_DIR without it).
 * Safe to run from several instances at once. specforge created this file once; it is yours.
 */
// First: it loads `.env`, as `npm start` does.
import { envFile } from './generated/conventions/environment.js';
import { databaseSettingsFromEnv, openDatabase } from './store/database.js';
import { migrate } from './store/migrate.js';

try {
  if (envFile.problem) throw new Error(envFile.problem);
  const db = await openDatabase(databaseSettingsFromEnv());
  try {
    const applied = await migrate(db);
    console.log(
      applied.length > 0 ? `Applied ${applied.join(', ')}.` : 'The database is up to date.',
    );
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(`Migrating failed: ${(error as Error).message}`);
  process.exit(1);
}
