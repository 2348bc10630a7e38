// What parseFullYaml gives when the parser runs out of stack: the shape guard
// (src/core/yaml-guard.ts) refuses deep nesting before the parser starts, so
// no file reaches these paths; parseFullYaml is given a parser that takes them.
import { describe, expect, it } from 'vitest';
import { type Document, type DocumentOptions, type ParseOptions, parseAllDocuments, type SchemaOptions, YAMLParseError } from 'yaml';
import { parseFullYaml } from '../../src/core/yaml-syntax.ts';

const F = 'global/x.yaml';

describe('parseFullYaml when the parser overflows', () => {
  it('a parser that throws: yaml-too-deep with its message, not a crash', () => {
    const parse = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    expect(parseFullYaml(F, 'a: [x]\n', parse).diagnostics).toEqual([
      {
        code: 'yaml-too-deep',
        severity: 'error',
        file: F,
        line: 0,
        col: 0,
        message: 'file could not be parsed: Maximum call stack size exceeded',
        hint: 'Nesting this deep is never needed in a store file.',
      },
    ]);
  });

  it('a thrown value that is no Error is shown as text', () => {
    const parse = () => {
      throw 'stack';
    };
    expect(parseFullYaml(F, 'a: [x]\n', parse).diagnostics.map((d) => d.message)).toEqual(['file could not be parsed: stack']);
  });

  it("the parser's own RESOURCE_EXHAUSTION error: yaml-too-deep at its position, with no hint", () => {
    const parse = (source: string, options: ParseOptions & DocumentOptions & SchemaOptions) => {
      const docs = parseAllDocuments(source, options);
      docs[0]!.errors.push(new YAMLParseError([3, 6], 'RESOURCE_EXHAUSTION', 'Maximum call stack size exceeded'));
      return docs as Document.Parsed[];
    };
    expect(parseFullYaml(F, 'a: [x]\n', parse).diagnostics).toEqual([
      {
        code: 'yaml-too-deep',
        severity: 'error',
        file: F,
        line: 1,
        col: 4,
        lineText: 'a: [x]',
        message: 'Maximum call stack size exceeded',
      },
    ]);
  });
});
