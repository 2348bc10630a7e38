import type { Diagnostic, DiagnosticCode, RelatedLocation } from '../../core/diagnostics.ts';
import type { Severity } from '../../core/model.ts';
import type { YamlFile } from '../../core/parse.ts';
import type { RecordingSource } from '../recording-source.ts';
import { problem } from './problem.ts';

/** Parses files again on demand, for the positions of keys in the few files a check reports. */
export class Located {
  private readonly cache = new Map<string, YamlFile | null>();
  private yamlModule: typeof import('../../core/parse.ts') | undefined;

  constructor(private readonly source: RecordingSource) {}

  /**
   * Reads the files whose positions will be asked for (a git source may not have read them yet; the source reads
   * only those it has not kept), and loads the parser. No file: nothing is read or loaded.
   */
  async load(files: readonly string[]): Promise<void> {
    if (files.length === 0) return;
    await this.source.read(files);
    this.yamlModule ??= await import('../../core/parse.ts');
  }

  /** The file parsed again; every caller has called load() first, which loads the parser. */
  yaml(file: string): YamlFile | undefined {
    if (!this.cache.has(file)) {
      const b = this.source.bytes.get(file);
      this.cache.set(file, b ? (this.yamlModule!.parseYaml(file, b).value ?? null) : null);
    }
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
      ? this.yamlModule!.diagAt(y, this.yamlModule!.offsetAt(y, path), code, message, hint)
      : problem(code, severity, file, message, hint);
    d.severity = severity;
    if (related) d.related = related;
    return d;
  }

  where(file: string, path: readonly string[]): { line: number; col: number } {
    const y = this.yaml(file);
    return y ? y.lines.linePos(this.yamlModule!.offsetAt(y, path)) : { line: 0, col: 0 };
  }
}
