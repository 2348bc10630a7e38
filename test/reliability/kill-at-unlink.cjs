// Loaded with `node --require` ahead of the CLI (kill.ts `runKilledAtUnlink`,
// `runStoppedAtRmdirIn`, `runStoppedAtUnlink`): the process sends itself KILL_SIGNAL (SIGKILL unless
// named) when it is about to remove the file KILL_AT_UNLINK names, or a folder
// directly in KILL_AT_RMDIR_IN, or to put a file in place at KILL_AT_PLACE or
// directly in the folder KILL_AT_PLACE_IN (a rename or link onto it), or (KILL_AT_FULL_STDOUT) once a write to stdout
// is held for a reader that does not read: a crash, a stop signal, or a pause
// (SIGSTOP) at that point exactly. The product carries no hook for this.
'use strict';
const fs = require('node:fs');
const { dirname } = require('node:path');
const { syncBuiltinESMExports } = require('node:module');

const target = process.env.KILL_AT_UNLINK;
const signal = process.env.KILL_SIGNAL || 'SIGKILL';
const unlinkSync = fs.unlinkSync;
fs.unlinkSync = (path) => {
  if (String(path) === target) process.kill(process.pid, signal);
  return unlinkSync(path);
};
const rmdirIn = process.env.KILL_AT_RMDIR_IN;
const rmdirSync = fs.rmdirSync;
fs.rmdirSync = (path, ...rest) => {
  if (rmdirIn !== undefined && dirname(String(path)) === rmdirIn) process.kill(process.pid, signal);
  return rmdirSync(path, ...rest);
};
const placed = process.env.KILL_AT_PLACE;
const placedIn = process.env.KILL_AT_PLACE_IN;
for (const name of ['renameSync', 'linkSync']) {
  const place = fs[name];
  fs[name] = (from, to, ...rest) => {
    if (String(to) === placed || (placedIn !== undefined && dirname(String(to)) === placedIn)) process.kill(process.pid, signal);
    return place(from, to, ...rest);
  };
}
syncBuiltinESMExports();
if (process.env.KILL_AT_FULL_STDOUT) {
  const write = process.stdout.write;
  let sent = false;
  process.stdout.write = function (...args) {
    const taken = write.apply(this, args);
    // Sent once, as the run goes on to wait for the reader, as for a slow pipe.
    if (!taken && !sent) {
      sent = true;
      setImmediate(() => process.kill(process.pid, signal));
    }
    return taken;
  };
}
