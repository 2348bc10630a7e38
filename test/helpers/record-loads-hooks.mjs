import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.AGENTS_LOAD_LOG) appendFileSync(process.env.AGENTS_LOAD_LOG, `${url}\n`);
  return nextLoad(url, context);
}
