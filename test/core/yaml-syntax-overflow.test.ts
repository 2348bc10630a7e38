// What parseFullYaml gives when the parser runs out of stack: the shape guard
// (src/core/yaml-guard.ts) refuses deep nesting before the parser starts, so
// no file reaches these paths; the parser is stubbed here to take them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as yaml from 'yaml';
import { parseFullYaml } from '../../src/core/yaml-syntax.ts';

vi.mock('yaml', async (importOriginal) => {
  const real = await importOriginal<typeof import('yaml')>();
  return { ...real, parseAllDocuments: vi.fn(real.parseAllDocuments) };
});

const F = 'global/x.yaml';
const parse = vi.mocked(yaml.parseAllDocuments);
const real = await vi.importActual<typeof import('yaml')>('yaml');

beforeEach(() => {
  parse.mockClear();
});

describe('parseFullYaml when the parser overflows', () => {
  it('a parser that throws: yaml-too-deep with its message, not a crash', () => {
    parse.mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(parseFullYaml(F, 'a: [x]\n').diagnostics).toEqual([
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
    parse.mockImplementationOnce(() => {
      throw 'stack';
    });
    expect(parseFullYaml(F, 'a: [x]\n').diagnostics.map((d) => d.message)).toEqual(['file could not be parsed: stack']);
  });

  it("the parser's own RESOURCE_EXHAUSTION error: yaml-too-deep at its position, with no hint", () => {
    parse.mockImplementationOnce((source, options) => {
      const docs = real.parseAllDocuments(source, options);
      docs[0]!.errors.push(new yaml.YAMLParseError([3, 6], 'RESOURCE_EXHAUSTION', 'Maximum call stack size exceeded'));
      return docs as ReturnType<typeof parse>;
    });
    expect(parseFullYaml(F, 'a: [x]\n').diagnostics).toEqual([
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
