#!/usr/bin/env bash
# Re-makes the vendored three.js files in static/vendor/three from node_modules (npm install
# first; three and esbuild are pinned exactly in package.json). three.js is MIT-licensed (LICENSE
# copied). three 0.187.0 ships no minified build: each file is minified on its own with esbuild
# (--minify --format=esm, no bundling), so the imports stay as they are — three.module.js imports
# ./three.core.js, OrbitControls.js imports `three` — and the import map in static/index.html
# (`three` and `three/addons/` → vendor/three/) resolves them. Licence comments are kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
src=node_modules/three
esbuild=node_modules/.bin/esbuild
dst=static/vendor/three
[ -d "$src" ] && [ -x "$esbuild" ] || { echo "run npm install in web/ first" >&2; exit 1; }
rm -rf "$dst"
mkdir -p "$dst/addons/controls"
cp "$src/LICENSE" "$dst/LICENSE"
min() { "$esbuild" "$1" --minify --format=esm --legal-comments=inline --log-level=warning --outfile="$2"; }
min "$src/build/three.core.js" "$dst/three.core.js"
min "$src/build/three.module.js" "$dst/three.module.js"
min "$src/examples/jsm/controls/OrbitControls.js" "$dst/addons/controls/OrbitControls.js"
echo "three $(node -p "require('./$src/package.json').version") minified into $dst ($(du -sh "$dst" | cut -f1)) with esbuild $("$esbuild" --version)"
