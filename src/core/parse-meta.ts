/**
 * The parsers of the two metadata files of a scope folder (project.yaml,
 * action.yaml), on the shared YAML and schema helpers of parse-core.ts.
 */
import type { Parsed } from './diagnostics.ts';
import { globProblem } from './globs.ts';
import type { ProjectMeta } from './model.ts';
import { checkSchema, diagAt, offsetAt, parseYaml, plainTextDiagnostics, type YamlSyntax } from './parse-core.ts';

/**
 * `projects/<name>/project.yaml`: YAML, schema, plain text (like every store
 * file), then each path glob's own rules (relative, inside the repository, a
 * pattern the matcher takes; see globs.ts), each reported at its position.
 */
export function parseProjectMeta(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<ProjectMeta> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) {
    if (parsed.diagnostics.every((d) => d.code === 'file-empty')) return { value: {}, diagnostics: [] };
    return { diagnostics: parsed.diagnostics };
  }
  const y = parsed.value;
  const diagnostics = checkSchema(y, 'project.schema.json');
  if (diagnostics.length > 0) return { diagnostics };
  diagnostics.push(...plainTextDiagnostics(y, 'project.schema.json'));
  const meta = y.data as ProjectMeta;
  for (const [i, glob] of (meta.paths ?? []).entries()) {
    const problem = globProblem(glob);
    if (problem)
      diagnostics.push(
        diagAt(
          y,
          offsetAt(y, ['paths', String(i)]),
          'project-path-invalid',
          `paths.${i} ${JSON.stringify(glob)} ${problem}`,
          'Paths are globs relative to the top of the repository, e.g. services/billing/**.',
        ),
      );
  }
  if (diagnostics.length > 0) return { diagnostics };
  const value: ProjectMeta = {};
  if (meta.description !== undefined) value.description = meta.description;
  if (meta.paths !== undefined) value.paths = [...meta.paths];
  return { value, diagnostics: [] };
}

export function parseActionMeta(file: string, bytes: Uint8Array, syntax?: YamlSyntax): Parsed<{ description?: string }> {
  const parsed = parseYaml(file, bytes, syntax);
  if (!parsed.value) {
    if (parsed.diagnostics.every((d) => d.code === 'file-empty')) return { value: {}, diagnostics: [] };
    return { diagnostics: parsed.diagnostics };
  }
  const diagnostics = checkSchema(parsed.value, 'action.schema.json');
  if (diagnostics.length === 0) diagnostics.push(...plainTextDiagnostics(parsed.value, 'action.schema.json'));
  if (diagnostics.length > 0) return { diagnostics };
  return { value: parsed.value.data as { description?: string }, diagnostics: [] };
}
