import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInvariant, parseYaml, YamlSyntaxNotLoaded } from '../../src/core/parse-core.ts';
import { regexProblem } from '../../src/core/guard-patterns.ts';
import { parseYamlDocument, parseYamlDocumentNow } from '../../src/store/yaml-document.ts';
import { REPO } from '../helpers/cli.ts';

const ID = '01JDQ6X5Z8W4N3B2C1D0E9F8G7';
const bytes = (s: string) => new TextEncoder().encode(s);
/** The shape the tool writes (the fast path takes it). */
const CANONICAL = bytes(`id: ${ID}\ntext: Never delete data\n`);
/** Flow style: only the full parser reads it. */
const FLOW = bytes(`{id: ${ID}, text: Never delete data}\n`);

describe('parseYamlDocument, the one entry point for parsing store files', () => {
  it('parses the canonical shape and any other YAML to the same value', async () => {
    const scope = { kind: 'global' } as const;
    const a = await parseYamlDocument((syntax) => parseInvariant(`global/${ID}.yaml`, CANONICAL, scope, ID, true, syntax));
    const b = await parseYamlDocument((syntax) => parseInvariant(`global/${ID}.yaml`, FLOW, scope, ID, true, syntax));
    expect(a.diagnostics).toEqual([]);
    expect(b).toStrictEqual(a);
    expect(a.value?.text).toBe('Never delete data');
  });

  it('gives positions for a diagnostic in a file the fast path took', async () => {
    const bad = bytes(`id: ${ID}\ntext: Never delete data\nseverity: fatal\n`);
    const p = await parseYamlDocument((syntax) => parseInvariant(`global/${ID}.yaml`, bad, { kind: 'global' }, ID, true, syntax));
    expect(p.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['schema', 3, 11]]);
  });

  it('answers at once, once the full parser has been needed', async () => {
    await parseYamlDocument((syntax) => parseYaml('x.yaml', FLOW, syntax));
    const now = parseYamlDocumentNow((syntax) => parseYaml('x.yaml', FLOW, syntax));
    expect(now?.value.value?.data).toEqual({ id: ID, text: 'Never delete data' });
  });

  it('asks for the regular-expression engine only for a guard with a command or content pattern', async () => {
    const scope = { kind: 'global' } as const;
    const file = `global/${ID}.yaml`;
    const globs = bytes(`id: ${ID}\ntext: Never write secrets\nguard:\n  write:\n    - secrets/**\n`);
    const command = bytes(`id: ${ID}\ntext: Never force-push\nguard:\n  command:\n    - git push .*--force\n`);
    const broken = bytes(`id: ${ID}\ntext: Never force-push\nguard:\n  command:\n    - git push (\n`);
    expect(parseInvariant(file, globs, scope, ID, true, undefined).value?.guard).toEqual({ write: ['secrets/**'] });
    const missing = (() => {
      try {
        parseInvariant(file, command, scope, ID, true, undefined);
      } catch (error) {
        return error instanceof YamlSyntaxNotLoaded ? error.part : error;
      }
    })();
    expect(missing).toBe('regexProblem');
    expect(parseInvariant(file, command, scope, ID, true, { regexProblem }).value?.guard).toEqual({ command: ['git push .*--force'] });
    const p = await parseYamlDocument((syntax) => parseInvariant(file, broken, scope, ID, true, syntax));
    expect(p.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['guard-invalid', 5, 7]]);
  });

  it("passes on a parser's own errors", async () => {
    const fail = () => {
      throw new RangeError('not a parse problem');
    };
    await expect(parseYamlDocument(fail)).rejects.toThrow(RangeError);
    expect(() => parseYamlDocumentNow(fail)).toThrow(RangeError);
  });

  it('is the only module outside the core that knows the parser may not be loaded', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
    const knowing = files(join(REPO, 'src'))
      .filter((f) => readFileSync(f, 'utf8').includes('YamlSyntaxNotLoaded'))
      .map((f) => relative(REPO, f))
      .sort();
    expect(knowing).toEqual(['src/core/parse-core.ts', 'src/core/yaml-file.ts', 'src/store/yaml-document.ts']);
  });
});
