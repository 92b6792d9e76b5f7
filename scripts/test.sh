#!/usr/bin/env bash
# The whole test suite, as CI runs it: set-up, lint (format, rules, import cycles), typecheck,
# tests and build (publint + attw) on the default Node (20), then the tests again on Node 22
# and 24 (installed once under .tools by scripts/node-lines.sh).
#   MEM_NODE_LINES="22 24"   the extra Node lines (empty: the default Node only)
#   MEM_TEST_FILTER=<filter> only these packages (turbo --filter), e.g. @mem/store-sqlite
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
source scripts/node-lines.sh
export TURBO_TELEMETRY_DISABLED=1

lines=${MEM_NODE_LINES-22 24}
filter=()
if [[ -n "${MEM_TEST_FILTER:-}" ]]; then filter=("--filter=${MEM_TEST_FILTER}"); fi
status=0
logs=()
labels=()
summary=()
failures=()

# Sums every package's vitest summary line in log $1 ("Tests  12 passed | 1 failed (13)").
count() { { sed -E 's/\x1b\[[0-9;]*m//g' "$1" | grep -aE 'Tests +[0-9]+ ' | grep -oE "[0-9]+ $2" || true; } | awk '{s+=$1} END {print s+0}'; }

# What failed in log $1: vitest's FAIL / × lines and turbo's failed tasks (ANSI stripped, at most
# 40 lines), so the end of CI's output names them.
failed_lines() {
  { sed -E 's/\x1b\[[0-9;]*m//g' "$1" | grep -aE '(FAIL |[×✗] |exited \([0-9]+\)|AssertionError)' || true; } |
    awk '!seen[$0]++' | head -40
}

# Runs turbo task(s) $2... with Node bin dir $1 first on PATH. MEM_NODE_VERSION is part of the
# test task's hash (turbo.json: env MEM_*), so one Node's results never replay for another.
run_line() {
  local bin=$1 log major version start rc=0
  shift
  version=$("$bin/node" -p process.versions.node)
  major=${version%%.*}
  log=$(mktemp)
  logs+=("$log")
  labels+=("node $major")
  echo
  echo "[mem] ── node ${version}: turbo run $* ──"
  start=$SECONDS
  # On Node 24 the playground (private) is left out: its test of `bash scripts/demo.sh` runs the
  # bootstrap, whose `pnpm install` links better-sqlite3 back to 12 in the middle of the run, and
  # 12 aborts on Node 24 (`Assertion failed: (env) != nullptr` in its statement destructor). It is
  # tested on Node 20 and 22; every published package runs on 24.
  local only=("${filter[@]}")
  if [[ $major -ge 24 && ${#only[@]} -eq 0 ]]; then only=("--filter=!@mem/playground"); fi
  PATH="$bin:$PATH" MEM_NODE_VERSION="$version" \
    pnpm exec turbo run "$@" "${only[@]}" --concurrency=1 --continue --output-logs=full 2>&1 | tee "$log" || rc=$?
  local passed failed
  passed=$(count "$log" passed)
  failed=$(count "$log" failed)
  if [[ $rc -ne 0 ]]; then
    status=$rc
    if [[ $failed -eq 0 ]]; then failed=1; fi
  fi
  summary+=("node ${major}: ${passed} passed, ${failed} failed")
  if [[ $rc -ne 0 ]]; then failures+=("node ${major}:" "$(failed_lines "$log" || true)"); fi
  echo "[mem] node ${version}: ${passed} passed, ${failed} failed in $((SECONDS - start)) s"
  totals_passed=$((totals_passed + passed))
  totals_failed=$((totals_failed + failed))
}

# better-sqlite3 12 aborts on Node 24 when a statement is finalized at an environment's teardown
# (`Assertion failed: (env) != nullptr`, worker threads and child processes included); 13 does not,
# and it is what npm installs for a Node 24 user. So the Node 24 run points every workspace link
# of better-sqlite3 at 13 (installed as better-sqlite3-v13), and back to 12 afterwards.
sqlite_links=()
sqlite_v12=''
sqlite_v13=''
mem_sqlite_major() {
  local want=$1 link target
  if [[ ${#sqlite_links[@]} -eq 0 ]]; then
    # The pnpm store directories of the two versions, e.g. better-sqlite3@12.6.2 and @13.2.0,
    # read once, before any link moves.
    sqlite_v12=$(readlink packages/store-sqlite/node_modules/better-sqlite3 | grep -o 'better-sqlite3@[0-9.]*' || true)
    sqlite_v13=$(readlink packages/store-sqlite/node_modules/better-sqlite3-v13 | grep -o 'better-sqlite3@[0-9.]*' || true)
    for link in node_modules/better-sqlite3 packages/*/node_modules/better-sqlite3 \
      apps/*/node_modules/better-sqlite3 examples/node_modules/better-sqlite3; do
      if [[ -L $link ]]; then sqlite_links+=("$link"); fi
    done
  fi
  if [[ -z $sqlite_v12 || -z $sqlite_v13 ]]; then return 0; fi
  for link in "${sqlite_links[@]}"; do
    target=$(readlink "$link")
    if [[ $want == 13 ]]; then target=${target/$sqlite_v12/$sqlite_v13}
    else target=${target/$sqlite_v13/$sqlite_v12}; fi
    ln -sfn "$target" "$link"
  done
}
trap 'mem_sqlite_major 12' EXIT

totals_passed=0
totals_failed=0
pnpm exec biome ci . || status=$?
# No import cycles anywhere, type-only imports included.
if [[ $status -eq 0 ]]; then pnpm run --silent cycles || status=$?; fi
if [[ $status -eq 0 ]]; then
  # Node bin dirs: the default first. Each gets its better-sqlite3 binary before any run.
  bins=("$(dirname "$(command -v node)")")
  for major in $lines; do bins+=("$(mem_node_bin "$major")"); done
  mem_sqlite_prepare "${bins[@]}" || status=$?
fi
if [[ $status -eq 0 ]]; then
  run_line "${bins[0]}" typecheck test build
  for bin in "${bins[@]:1}"; do
    if [[ "$("$bin/node" -p 'process.versions.node.split(".")[0]')" -ge 24 ]]; then
      mem_sqlite_major 13
    fi
    run_line "$bin" test
    mem_sqlite_major 12
    # The new user's path (pack, install, run), once, on Node 22.
    if [[ -f scripts/new-user-test.sh && "$("$bin/node" -p 'process.versions.node.split(".")[0]')" == 22 ]]; then
      echo
      echo "[mem] ── node 22: scripts/new-user-test.sh ──"
      PATH="$bin:$PATH" bash scripts/new-user-test.sh || { status=$?; totals_failed=$((totals_failed + 1)); }
    fi
  done
fi
rm -f "${logs[@]}"

# Closing lines: one per Node line, then the plain total CI greps for.
if [[ $status -ne 0 && $totals_failed -eq 0 ]]; then totals_failed=1; fi
echo
if [[ ${#failures[@]} -gt 0 ]]; then
  echo "[mem] what failed:"
  printf '%s\n' "${failures[@]}"
  echo
fi
if [[ ${#summary[@]} -gt 0 ]]; then (IFS=';'; echo "${summary[*]}" | sed 's/;/; /g'); fi
echo "${totals_passed} passed, ${totals_failed} failed"
exit "$status"
