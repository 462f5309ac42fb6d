#!/usr/bin/env node
// Runs the Khronos glTF-Validator (npm gltf-validator, installed by scripts/install-deps.sh into
// build/tools) on each file given, offline. Prints one JSON line per file: errors, warnings, infos
// and the messages; exits 1 when any file has an error or a warning.
// Usage: node validate_gltf.js VALIDATOR_DIR FILE...
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [validatorDir, ...files] = process.argv.slice(2);
  const validator = require(path.resolve(validatorDir, 'node_modules', 'gltf-validator'));
  let failed = false;
  for (const file of files) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      format: file.endsWith('.glb') ? 'glb' : 'gltf',
      // An export embeds its buffer: any outside resource is a fault of the file.
      externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri} asked for`)),
    });
    const issues = report.issues;
    const summary = {
      file,
      errors: issues.numErrors,
      warnings: issues.numWarnings,
      infos: issues.numInfos,
      messages: issues.messages.map((m) => `${m.severity === 0 ? 'error' : m.severity === 1 ? 'warning' : 'info'} ${m.code} ${m.pointer || ''}`),
    };
    console.log(JSON.stringify(summary));
    if (issues.numErrors > 0 || issues.numWarnings > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error.stack || String(error));
  process.exit(2);
});
