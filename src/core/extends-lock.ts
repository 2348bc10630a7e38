// Parsing `extends.lock.yaml` (docs/extends.md). Apart from ./extends.ts, which the
// public API reaches: this module needs the parser's types, and through them the
// `yaml` package, which the package's public declarations must not name.
import type { Diagnostic, Parsed } from './diagnostics.ts';
import { isCommitId, type ExtendsLock, type LockEntry } from './extends.ts';
import { checkSchema, parseYaml, plainTextDiagnostics, type YamlSyntax } from './parse-core.ts';
import { diagAt, offsetAt, type YamlFile } from './yaml-file.ts';

/** What to do with a pin the tool never writes: put back what `extends update` wrote, or pin again. */
const REPIN =
  'Restore the lock as `agents extends update` wrote it (`git checkout -- extends.lock.yaml` in the store), or remove this entry and run `agents extends update`.';

/**
 * A pin whose kind contradicts its ref: `kind: commit` names itself, so its ref is its commit (a lock edited to
 * `kind: commit` under a tag or branch would skip the check of the pin against its ref); and a ref that is a commit
 * id is always pinned as `kind: commit`.
 */
function kindProblem(y: YamlFile, i: number, s: LockEntry): Diagnostic | undefined {
  const at = (key: string) => offsetAt(y, ['sources', String(i), key]);
  if (s.kind === 'commit' && s.ref !== s.commit)
    return diagAt(
      y,
      at('commit'),
      'schema',
      `the source ${s.name} is pinned by commit id (kind: commit), but its ref ${s.ref} is not the commit ${s.commit}`,
      REPIN,
    );
  if (s.kind !== 'commit' && isCommitId(s.ref))
    return diagAt(y, at('kind'), 'schema', `the source ${s.name} names a commit id as its ref, but is pinned as a ${s.kind}`, REPIN);
  return undefined;
}

/**
 * Parses `extends.lock.yaml` (schemas/extends-lock.schema.json), and checks that no name is pinned twice.
 * Without `syntax` it reads only the shape the tool writes, as the other parsers of parse-core.ts
 * do; store/yaml-document.ts passes the full parser when a file needs it.
 */
export function parseExtendsLock(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<ExtendsLock> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) return { diagnostics: parsed.diagnostics };
  const schema = 'extends-lock.schema.json';
  const diagnostics = checkSchema(parsed.value, schema);
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(parsed.value, schema));
  if (diagnostics.length > 0) return { diagnostics };
  const lock = parsed.value.data as ExtendsLock;
  const kinds = lock.sources.map((s, i) => kindProblem(parsed.value!, i, s)).filter((d) => d !== undefined);
  if (kinds.length > 0) return { diagnostics: kinds };
  const names = new Set<string>();
  for (const [i, s] of lock.sources.entries()) {
    if (names.has(s.name))
      return {
        diagnostics: [
          diagAt(
            parsed.value,
            offsetAt(parsed.value, ['sources', String(i), 'name']),
            'schema',
            `the source ${s.name} is pinned twice`,
            // `extends update` reads the lock before it writes one: it cannot be the way out of a broken lock.
            'Remove one of the two entries (after a merge of two pin changes, keep the one whose ref config.yaml names), then run `agents extends update`, which checks what is left.',
          ),
        ],
      };
    names.add(s.name);
  }
  return { value: lock, diagnostics: [] };
}
