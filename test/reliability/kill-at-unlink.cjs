// Loaded with `node --require` ahead of the CLI (kill.ts `runKilledAtUnlink`):
// the process sends itself KILL_SIGNAL (SIGKILL unless named) when it is about
// to remove the file KILL_AT_UNLINK names: a crash, or a stop signal, at that
// point exactly. The product carries no hook for this.
'use strict';
const fs = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');

const target = process.env.KILL_AT_UNLINK;
const signal = process.env.KILL_SIGNAL || 'SIGKILL';
const unlinkSync = fs.unlinkSync;
fs.unlinkSync = (path) => {
  if (String(path) === target) process.kill(process.pid, signal);
  return unlinkSync(path);
};
syncBuiltinESMExports();
