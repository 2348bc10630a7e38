// Preloaded with `node --import` by tests: records the URL of every module
// the process loads (one per line) in the file named by TRACE_LOADS_FILE.
import { register } from 'node:module';

const file = process.env.TRACE_LOADS_FILE;
if (file) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let out;
    export function initialize(data) { out = data.file; }
    export async function resolve(specifier, context, next) {
      const r = await next(specifier, context);
      appendFileSync(out, r.url + '\\n');
      return r;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file } });
}
