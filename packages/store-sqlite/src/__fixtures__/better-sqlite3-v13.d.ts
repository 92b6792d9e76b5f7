// better-sqlite3 13 ships no types; its API is 12's (what @types/better-sqlite3 describes).
declare module 'better-sqlite3-v13' {
  export { default } from 'better-sqlite3';
}
