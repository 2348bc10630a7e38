import type { Diagnostic } from '../../core/diagnostics.ts';
import { SCHEMAS, schemaCopy, type SchemaName } from '../../core/schema-docs.ts';
import { readFailure } from '../../store/read-plan.ts';
import { cacheableBlob, type TreeEntry, type TreeSource } from '../../store/tree-source.ts';
import type { FactsCache } from '../cache.ts';
import type { FileFacts } from '../file-facts.ts';
import { problem } from './problem.ts';

/** The store's copies of the schemas (for editors) against the tool's own. */
export async function checkSchemaCopies(
  source: TreeSource,
  tree: TreeSource,
  entries: readonly TreeEntry[],
  cache: FactsCache,
): Promise<Diagnostic[]> {
  if (!entries.some((e) => e.path === 'schemas' && e.type === 'dir') && !entries.some((e) => e.path.startsWith('schemas/'))) return [];
  const files = (Object.keys(SCHEMAS) as SchemaName[]).map((name) => ({ name, file: `schemas/${name}` }));
  // From git, a copy whose blob the cache knows is not read (its verdict is kept like a file's facts).
  const known = tree.blobIds && cache.enabled ? await tree.blobIds() : undefined;
  const verdicts = new Map<string, FileFacts>();
  for (const { file } of files) {
    const blob = cacheableBlob(known?.get(file));
    const hit = blob === undefined ? undefined : cache.get(file, blob);
    if (hit) verdicts.set(file, hit);
  }
  const toRead = files.filter(({ file }) => !verdicts.has(file)).map(({ file }) => file);
  const contents = await source.read(toRead);
  const out: Diagnostic[] = [];
  const hint = 'Run `agents init --schemas` to refresh the copies, then commit them.';
  for (const { name, file } of files) {
    let verdict = verdicts.get(file);
    if (!verdict) {
      const r = contents.get(file)!;
      if (!r.ok && r.code !== 'missing') {
        // A link, a folder or a special file where the copy goes: said as it is, not as a missing copy.
        out.push(readFailure(file, r));
        continue;
      }
      if (!r.ok) {
        out.push(
          problem(
            'schema-outdated',
            'warning',
            file,
            `${file} is missing from the store; editors cannot validate ${name.replace('.schema.json', '')} files as you type`,
            hint,
          ),
        );
        continue;
      }
      let same = false;
      try {
        same =
          anyVersion(JSON.stringify(JSON.parse(new TextDecoder().decode(r.bytes)))) ===
          anyVersion(JSON.stringify(JSON.parse(schemaCopy(name))));
      } catch {
        // Not JSON: it differs.
      }
      verdict = same
        ? {}
        : {
            d: [
              problem(
                'schema-outdated',
                'warning',
                file,
                `${file} differs from the schema this version of agents checks against; editors may accept what validate refuses`,
                hint,
              ),
            ],
          };
      const blob = known?.get(file)?.sha;
      if (blob !== undefined) cache.set(file, blob, verdict);
    }
    if (verdict.d) out.push(...verdict.d);
  }
  return out;
}

/**
 * A copy's text with the version its documentation links name left out: links to another version's pages say the
 * same, and a copy that differs only there is not outdated (a new version would otherwise flag every store's copies).
 */
function anyVersion(text: string): string {
  return text.replace(/\/blob\/v[^/"]+\/docs\//g, '/blob/docs/');
}
