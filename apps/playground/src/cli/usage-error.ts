/** Bad command-line usage (unknown command or option, a missing or bad value): exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage:
  mem-playground replay <conversation.json> --profile <profile.json> [options]
  mem-playground serve [--port <n>] [--data-dir <dir>]

replay options:
  --profile <file>      memory profile JSON (snake_case, bare or {"profile": ...})   (required)
  --store <kind>        sqlite (default), memory or redis
  --sqlite-path <file>  SQLite file to keep (default: a temporary file, removed at the end)
  --redis-url <url>     Redis server for --store redis, e.g. redis://127.0.0.1:6379
  --json                print the stats as one JSON line instead of the table
  -h, --help            show this help

serve options:
  --port <n>            port on 127.0.0.1 (default: PORT, else 4310; 0 = any free port)
  --data-dir <dir>      where the replays' SQLite files are made (default: MEM_PLAYGROUND_DATA_DIR,
                        else the OS's temp dir); each replay uses a fresh file there, removed
                        when the server stops

Conversation files: mem.conversation.v1 (sessions or messages), an OpenAI Chat Completions
transcript ({"messages": [...]} or a bare array) or an Anthropic Messages request
({"system": ..., "messages": [...]}).
Exit codes: 0 ok, 1 the replay failed, 2 bad usage, conversation file or profile.`;
