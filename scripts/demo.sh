#!/usr/bin/env bash
# Sets up the workspace on a fresh machine, then starts the playground: a web page on loopback
# that replays a bundled conversation through a memory profile. Prints its address; Ctrl-C stops
# it. Arguments go to `mem-playground serve` (e.g. `--port 8080`; `--port 0` picks a free one).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec pnpm --silent --filter @mem/playground start "$@"
