#!/usr/bin/env bash
# Re-copies the vendored three.js files into static/vendor/three from node_modules (npm install
# first; the version is pinned exactly in package.json). three.js is MIT-licensed (LICENSE copied).
# The page maps `three` and `three/addons/` to these paths with an import map (static/index.html).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
src=node_modules/three
dst=static/vendor/three
[ -d "$src" ] || { echo "run npm install in web/ first" >&2; exit 1; }
rm -rf "$dst"
mkdir -p "$dst/addons/controls"
cp "$src/LICENSE" "$dst/LICENSE"
cp "$src/build/three.module.js" "$src/build/three.core.js" "$dst/"
cp "$src/examples/jsm/controls/OrbitControls.js" "$dst/addons/controls/"
echo "three $(node -p "require('./$src/package.json').version") copied to $dst"
