#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/deps.txt that are not installed yet.
# Runs as root (or with sudo available); does nothing when everything is present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t wanted < <(grep -v '^\s*#' "$here/deps.txt" | sed 's/\s.*//' | grep -v '^$')
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
# Node.js runs the glTF validator; a machine that has it from elsewhere (NodeSource) keeps it.
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#wanted[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Test-only: the Khronos glTF-Validator from the npm registry, into the build's tools folder
# (tests/rig/validate_gltf.js runs it offline).
validator_version=2.0.0-dev.3.10
tools="$here/../build/tools"
if [[ ! -f "$tools/node_modules/gltf-validator/package.json" ]] ||
   ! grep -q "\"version\": \"$validator_version\"" "$tools/node_modules/gltf-validator/package.json"; then
  echo "install-deps: installing gltf-validator $validator_version into build/tools"
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --silent "gltf-validator@$validator_version"
fi
