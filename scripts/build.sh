#!/usr/bin/env bash
# Compiles the TypeScript sources into dist/ only when one of them (or tsconfig.json) changed since the
# last successful build, so `npm start` on an unchanged tree starts in seconds. tsc itself builds
# incrementally (dist/tsconfig.tsbuildinfo). A production install without dev dependencies has no tsc:
# an up-to-date dist/ runs as it is, a stale one is refused with what to do.
#   --at-install  npm's prepare step: a tree without sources yet (a Docker dependency layer) builds
#                 nothing, and a missing tsc only warns (npm start refuses a stale dist/ later).
set -euo pipefail
cd "$(dirname "$0")/.."
at_install=false
if [ "${1:-}" = "--at-install" ]; then at_install=true; fi

if [ ! -f tsconfig.json ]; then
  if $at_install; then exit 0; fi
  echo "build: no tsconfig.json in $(pwd)" >&2
  exit 1
fi

stamp=dist/.build-stamp

# npm runs a package's bin by its path, so the compiled entry points must be executable; tsc writes
# every file 0644, and npm sets the bit only on bins it links, which it does not for the root package.
mark_bins_executable() {
  if [ ! -f package.json ]; then return 0; fi
  node -e 'for (const file of Object.values(require("./package.json").bin ?? {})) { try { require("fs").chmodSync(file, 0o755) } catch (error) { if (error.code !== "ENOENT") throw error } }'
}
# The folders tsc compiles, from tsconfig.json's include.
read -r -a sources <<<"$(node -e 'console.log(require("./tsconfig.json").include.join(" "))')"
existing=()
for source in "${sources[@]}"; do if [ -e "$source" ]; then existing+=("$source"); fi; done

changed=""
if [ -f "$stamp" ]; then
  changed=$(find tsconfig.json "${existing[@]}" -newer "$stamp" \( -name '*.ts' -o -name '*.json' \) -print -quit)
  if [ -z "$changed" ]; then
    echo "build: dist/ is up to date"
    mark_bins_executable
    bash scripts/build-web.sh
    exit 0
  fi
fi

tsc=node_modules/.bin/tsc
if [ ! -x "$tsc" ]; then
  if [ ! -d node_modules ]; then
    # A fresh clone: nothing installed yet.
    message="the dependencies are not installed: run npm install (it also builds dist/), then npm start again"
  else
    message="dist/ is out of date (${changed:-never built}) and TypeScript is not installed: run npm install (a production install omits the dev dependencies that build: npm install && npm run build, then npm prune --omit=dev)"
  fi
  if $at_install; then
    echo "build: warning: $message" >&2
    exit 0
  fi
  echo "build: $message" >&2
  exit 1
fi

echo "build: compiling (${changed:-no earlier build})..."
mkdir -p dist
# Stamped with the time the compilation started: a source saved during it is compiled next time.
touch "$stamp.next"
"$tsc" -p tsconfig.json
mv "$stamp.next" "$stamp"
mark_bins_executable
bash scripts/build-web.sh
