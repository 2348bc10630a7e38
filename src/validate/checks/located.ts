import type { Diagnostic, DiagnosticCode, RelatedLocation } from '../../core/diagnostics.ts';
import type { Severity } from '../../core/model.ts';
import type { YamlFile } from '../../core/yaml-file.ts';
import type { RecordingSource } from '../recording-source.ts';
import { problem } from './problem.ts';

/**
 * Parses files again on demand, for the positions of keys in the few files a
 * check reports. A file in the canonical shape is placed from its own lines;
 * only another shape loads the full parser (store/yaml-document.ts).
 */
export class Located {
  private readonly cache = new Map<string, YamlFile | null>();
  /** The parser (core/yaml-file.ts, through the one YAML entry point), loaded by the first load() that has files. */
  private parsing: { core: typeof import('../../core/yaml-file.ts'); entry: typeof import('../../store/yaml-document.ts') } | undefined;

  constructor(private readonly source: RecordingSource) {}

  /**
   * Reads and parses the files whose positions will be asked for (a git source may not have read them yet; the
   * source reads only those it has not kept). No file: nothing is read or loaded.
   */
  async load(files: readonly string[]): Promise<void> {
    if (files.length === 0) return;
    await this.source.read(files);
    if (!this.parsing) {
      const [core, entry] = await Promise.all([import('../../core/yaml-file.ts'), import('../../store/yaml-document.ts')]);
      this.parsing = { core, entry };
    }
    const { core, entry } = this.parsing;
    for (const file of files) {
      if (this.cache.has(file)) continue;
      const b = this.source.bytes.get(file);
      this.cache.set(file, b ? ((await entry.parseYamlDocument((syntax) => core.parseYaml(file, b, syntax))).value ?? null) : null);
    }
  }

  /** The file as load() parsed it (undefined: not asked for, unreadable, or not YAML). */
  yaml(file: string): YamlFile | undefined {
    return this.cache.get(file) ?? undefined;
  }

  at(
    file: string,
    path: readonly string[],
    code: DiagnosticCode,
    severity: Severity,
    message: string,
    hint: string,
    related?: RelatedLocation[],
  ): Diagnostic {
    const y = this.yaml(file);
    const d = y
      ? this.parsing!.core.diagAt(y, this.parsing!.core.offsetAt(y, path), code, message, hint)
      : problem(code, severity, file, message, hint);
    d.severity = severity;
    if (related) d.related = related;
    return d;
  }

  where(file: string, path: readonly string[]): { line: number; col: number } {
    const y = this.yaml(file);
    return y ? y.lines.linePos(this.parsing!.core.offsetAt(y, path)) : { line: 0, col: 0 };
  }
}
