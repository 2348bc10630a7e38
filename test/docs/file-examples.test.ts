// The pages show each store file as an example with its schema's modeline
// (docs/store-format.md's invariant file, its waiver file…): a reader learns
// the file's keys there, so each example names every key its schema allows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

/** Each ```yaml example of the pages whose modeline names a schema: the page, the schema's name and the top-level keys it writes. */
function examples(): { page: string; schema: string; keys: Set<string> }[] {
  const out: { page: string; schema: string; keys: Set<string> }[] = [];
  for (const name of readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(REPO, 'docs', name), 'utf8');
    for (const m of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
      const schema = /\$schema=(?:\.\.\/)*schemas\/([a-z-]+)\.schema\.json/.exec(m[1]!)?.[1];
      if (schema !== undefined)
        out.push({ page: `docs/${name}`, schema, keys: new Set([...m[1]!.matchAll(/^([a-z_]+):/gm)].map((k) => k[1]!)) });
    }
  }
  return out;
}

describe('the examples of store files in docs/', () => {
  it('name every top-level key their schema allows', () => {
    const found = examples();
    expect(found.map((e) => e.schema)).toEqual(expect.arrayContaining(['invariant', 'waiver', 'project', 'extends-lock']));
    const missing = found.flatMap(({ page, schema, keys }) => {
      const properties = (JSON.parse(readFileSync(join(REPO, 'schemas', `${schema}.schema.json`), 'utf8')) as { properties: object })
        .properties;
      return Object.keys(properties)
        .filter((k) => !keys.has(k))
        .map((k) => `${page}: ${schema} example lacks ${k}`);
    });
    expect(missing).toEqual([]);
  });
});
