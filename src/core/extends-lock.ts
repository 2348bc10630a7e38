// Parsing `extends.lock.yaml` (docs/extends.md). Apart from ./extends.ts, which the
// public API reaches: this module needs the parser's types, and through them the
// `yaml` package, which the package's public declarations must not name.
import type { Parsed } from './diagnostics.ts';
import type { ExtendsLock } from './extends.ts';
import { checkSchema, diag, parseYaml, plainTextDiagnostics, type YamlSyntax } from './parse-core.ts';

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
  const names = new Set<string>();
  for (const s of lock.sources) {
    if (names.has(s.name))
      return {
        diagnostics: [diag(file, 'schema', `the source ${s.name} is pinned twice`, 'Run `agents extends update` to write the lock again.')],
      };
    names.add(s.name);
  }
  return { value: lock, diagnostics: [] };
}
