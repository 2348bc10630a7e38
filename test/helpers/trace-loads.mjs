// Preloaded with `node --import` by tests: records the URL of every module
// the process loads, one per line, in the file named by TRACE_LOADS_FILE,
// when the process exits: each file: module as V8 parses it (the inspector's
// scriptParsed, in this thread: a module.register() hook would cost a loader
// thread, twice the CPU of the run it traces), then each public built-in the
// program loaded as node:<name>.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.TRACE_LOADS_FILE;
if (file) {
  const self = import.meta.url;
  const builtins = (list) =>
    list.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => `node:${m.slice(13)}`);
  const before = new Set(builtins(process.moduleLoadList));
  const urls = [];
  const session = new Session();
  session.connect();
  session.on('Debugger.scriptParsed', ({ params }) => {
    if (params.url.startsWith('file:') && params.url !== self) urls.push(params.url);
  });
  session.post('Debugger.enable');
  process.on('exit', () => {
    const loaded = builtins(process.moduleLoadList).filter((b) => !before.has(b));
    writeFileSync(file, `${[...urls, ...loaded].join('\n')}\n`);
  });
}
