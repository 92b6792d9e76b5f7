#!/usr/bin/env bash
# The whole test suite, as CI runs it: set-up, lint (format, rules, import cycles), typecheck,
# tests, build (publint + attw).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
export TURBO_TELEMETRY_DISABLED=1

log=$(mktemp)
status=0
pnpm exec biome ci . || status=$?
# No import cycles anywhere, type-only imports included.
if [[ $status -eq 0 ]]; then pnpm run --silent cycles || status=$?; fi
if [[ $status -eq 0 ]]; then
  pnpm exec turbo run typecheck test build --concurrency=1 --output-logs=full 2>&1 | tee "$log" || status=$?
fi

# One plain closing line over every package's vitest summary.
count() { { sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE 'Tests +[0-9]+ ' | grep -oE "[0-9]+ $1" || true; } | awk '{s+=$1} END {print s+0}'; }
passed=$(count passed)
failed=$(count failed)
rm -f "$log"
if [[ $status -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo
echo "${passed} passed, ${failed} failed"
exit "$status"
