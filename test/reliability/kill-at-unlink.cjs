// Loaded with `node --require` ahead of the CLI (kill.ts `runKilledAtUnlink`):
// the process kills itself with SIGKILL when it is about to remove the file
// KILL_AT_UNLINK names, a crash at that point exactly. The product carries no
// hook for this.
'use strict';
const fs = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');

const target = process.env.KILL_AT_UNLINK;
const unlinkSync = fs.unlinkSync;
fs.unlinkSync = (path) => {
  if (String(path) === target) process.kill(process.pid, 'SIGKILL');
  return unlinkSync(path);
};
syncBuiltinESMExports();
