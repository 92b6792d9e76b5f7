import { onStdinLine } from '@mem/store-test-suite/processes';
import Database from 'better-sqlite3';

/*
 * An OS process of the lock-wait test: lock-holder.ts <db file>
 * Takes SQLite's write lock on the file (BEGIN IMMEDIATE, raw better-sqlite3), prints `locked`,
 * holds it until `release` arrives on stdin, then commits, prints `released` and exits.
 */
const [path] = process.argv.slice(2) as [string];
const db = new Database(path);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
await onStdinLine('release');
db.exec('COMMIT');
db.close();
process.stdout.write('released\n');
process.exit(0);
