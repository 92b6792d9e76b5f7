#!/usr/bin/env bash
# Installs everything the workspace needs on a fresh machine: the pinned pnpm, then the
# dependencies (native builds included). Safe to run again; fast when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

need_node_major=20
need_node_minor=19
node_version=$(node -p 'process.versions.node' 2>/dev/null || echo "0.0.0")
IFS=. read -r major minor _ <<<"$node_version"
if (( major < need_node_major || (major == need_node_major && minor < need_node_minor) )); then
  echo "[mem] Node.js >= ${need_node_major}.${need_node_minor} is required (found ${node_version})." >&2
  exit 1
fi

# The pnpm version is pinned in package.json ("packageManager"); corepack cannot verify
# signatures here, so install that exact version with npm.
pnpm_version=$(node -p 'require("./package.json").packageManager.split("@")[1]')
if [[ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]]; then
  echo "[mem] installing pnpm@${pnpm_version}"
  if ! npm install -g --no-fund --no-audit "pnpm@${pnpm_version}" >/dev/null 2>&1; then
    # No permission for a global install: keep a project-local copy instead.
    npm install --prefix .tools --no-fund --no-audit "pnpm@${pnpm_version}" >/dev/null
    export PATH="$PWD/.tools/node_modules/.bin:$PATH"
  fi
fi

# node-gyp builds native addons against the installed Node headers, never downloads them.
if [[ -f /usr/include/node/node.h ]]; then
  export npm_config_nodedir=/usr
fi
export TURBO_TELEMETRY_DISABLED=1

pnpm install --frozen-lockfile --reporter=append-only 2>&1 | tail -n 5

# System packages from Debian, installed as root when missing: `apt-get update` runs at most
# once per bootstrap, and only when something has to be installed.
apt_updated=0
apt_install() {
  local out
  if [[ $apt_updated -eq 0 ]]; then
    out=$(apt-get update -qq 2>&1) || { echo "$out" >&2; return 1; }
    apt_updated=1
  fi
  # apt's and debconf's chatter is shown only when the install fails.
  out=$(DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" 2>&1) ||
    { echo "$out" >&2; echo "[mem] apt-get install $* failed" >&2; return 1; }
}
can_apt() { [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; }

# Redis (server + cli) for @mem/store-redis tests: a standalone server and a 3-master cluster
# are started on loopback by the test setup itself.
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  if can_apt; then
    echo "[mem] installing redis-server and redis-tools from Debian"
    apt_install redis-server redis-tools
  else
    echo "[mem] redis-server is missing: install Redis >= 7 (redis-server, redis-cli) to run the Redis tests." >&2
  fi
fi

# Chromium for the playground's browser tests and benchmark (driven by playwright-core, which
# never downloads a browser of its own).
if ! command -v chromium >/dev/null 2>&1; then
  if can_apt; then
    echo "[mem] installing chromium from Debian"
    apt_install chromium
  else
    # The playground itself runs without it; only its browser tests and benchmark need it.
    echo "[mem] chromium is missing: run 'apt-get install chromium' as root to run the playground's browser tests." >&2
  fi
fi
