#!/usr/bin/env bash
# The "new user" test: builds the published packages, packs them, installs the tarballs with npm
# into a fresh project outside the workspace (third-party dependencies from the npm registry) and
# runs the root README's quick start and @mem/ai-sdk's against a loopback OpenAI server, then reads the SQLite file
# back from CommonJS (`require()` and `import()`). Details in scripts/new-user-test.mjs.
# Assumes scripts/bootstrap.sh ran. Bounded: 15 minutes at most; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

pnpm exec turbo run build --filter=@mem/core --filter=@mem/store-sqlite --filter=@mem/summarizers \
  --filter=@mem/store-redis --filter=@mem/ai-sdk --output-logs=errors-only
exec timeout --kill-after=10 900 node scripts/new-user-test.mjs
