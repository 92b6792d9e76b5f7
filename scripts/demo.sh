#!/usr/bin/env bash
# Sets up the workspace and replays the bundled conversation through @mem/core.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
pnpm --filter @mem/core run example
