// git's conflict markers in a store file (src/core/merge-conflict.ts): found
// whole or not at all, and reported by the one YAML entry point as one
// `merge-conflict` diagnostic instead of the parser's slips.
import { describe, expect, it } from 'vitest';
import { conflictSides, mergeConflicts } from '../../src/core/merge-conflict.ts';
import { parseFullYaml } from '../../src/core/yaml-syntax.ts';

const MERGED = [
  'id: 01JG1000000000000000000000',
  '<<<<<<< HEAD',
  'text: Never drop production data',
  '=======',
  'text: Never delete production data or backups',
  '>>>>>>> feature',
  'severity: error',
  '',
].join('\n');

describe('mergeConflicts', () => {
  it('finds a conflict git wrote: the lines of its markers and the names of its sides', () => {
    expect(mergeConflicts(MERGED)).toEqual({
      offset: MERGED.indexOf('<<<<<<<'),
      startLine: 2,
      endLine: 6,
      ours: 'HEAD',
      theirs: 'feature',
      count: 1,
    });
  });

  it('finds the diff3 form (a base section), CRLF line ends, markers without labels, and counts every conflict', () => {
    const diff3 = ['<<<<<<< ours', 'a: 1', '||||||| base', 'a: 0', '=======', 'a: 2', '>>>>>>> theirs', ''].join('\r\n');
    expect(mergeConflicts(diff3)).toMatchObject({ startLine: 1, endLine: 7, ours: 'ours', theirs: 'theirs', count: 1 });
    const twice = ['<<<<<<<', 'a: 1', '=======', 'a: 2', '>>>>>>>', 'b: 1', '<<<<<<< x', '=======', '>>>>>>> y', ''].join('\n');
    expect(mergeConflicts(twice)).toMatchObject({ startLine: 1, endLine: 5, ours: '', theirs: '', count: 2 });
  });

  it('finds the longer markers a .gitattributes conflict-marker-size makes, all three of one length', () => {
    const ten = ['id: x', '<<<<<<<<<< HEAD', 'a: 1', '==========', 'a: 2', '>>>>>>>>>> feature', ''].join('\n');
    expect(mergeConflicts(ten)).toMatchObject({ startLine: 2, endLine: 6, ours: 'HEAD', theirs: 'feature', count: 1 });
    expect(mergeConflicts('<<<<<<<<<< HEAD\n=======\n>>>>>>>>>> x\n')).toBeNull();
    expect(mergeConflicts('<<<<<< HEAD\n======\n>>>>>> x\n')).toBeNull();
  });

  it('leaves alone what is not a whole conflict at the start of lines', () => {
    for (const text of [
      'id: x\ntext: fine\n',
      '<<<<<<< HEAD\ntext: a\n', // no separator, no end
      '<<<<<<< HEAD\ntext: a\n=======\n', // no end
      'rationale: |\n  <<<<<<< HEAD\n  =======\n  >>>>>>> x\n', // indented: text of a block scalar
      '<<<<<<<< HEAD\n=======\n>>>>>>> x\n', // eight, then seven: not the markers of one conflict
      '<<<<<<<HEAD\n=======\n>>>>>>> x\n', // no space before the label
      '=======\n<<<<<<< a\n>>>>>>> b\n', // the separator before the start
    ])
      expect(mergeConflicts(text), JSON.stringify(text)).toBeNull();
  });
});

describe('conflictSides', () => {
  it('takes each whole conflict as its first side and as its second, a diff3 base in neither, CRLF and longer markers kept', () => {
    expect(conflictSides(MERGED)).toEqual([
      'id: 01JG1000000000000000000000\ntext: Never drop production data\nseverity: error\n',
      'id: 01JG1000000000000000000000\ntext: Never delete production data or backups\nseverity: error\n',
    ]);
    const diff3 = 'a\r\n<<<<<<<<< ours\r\nx\r\n||||||||| base\r\no\r\n=========\r\ny\r\n>>>>>>>>> theirs\r\nb\r\n';
    expect(conflictSides(diff3)).toEqual(['a\r\nx\r\nb\r\n', 'a\r\ny\r\nb\r\n']);
  });

  it('leaves a conflict never closed as text, and finds none where there is no whole conflict', () => {
    expect(conflictSides('a\n<<<<<<< HEAD\nx\n=======\ny\n')).toBeUndefined();
    const open = 'a\n<<<<<<< HEAD\nx\n<<<<<<< HEAD\np\n=======\nq\n>>>>>>> f\n';
    expect(conflictSides(open)).toEqual(['a\n<<<<<<< HEAD\nx\np\n', 'a\n<<<<<<< HEAD\nx\nq\n']);
    // The markers are looked for in `marks`: a conflict blanked there (an example in a code fence) is text.
    // A side of a few hundred thousand lines (a file near the 4 MiB an export reads) is taken whole.
    const long = '\n'.repeat(300_000);
    expect(conflictSides(`<<<<<<< HEAD\n${long}=======\n>>>>>>> f\n<<<<<<< HEAD\n${long}`)?.[0].length).toBe(2 * long.length + 13);
    const shown = '```\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> f\n```\n';
    expect(conflictSides(shown, shown.replace(/[^\n]+/g, ''))).toBeUndefined();
  });
});

describe('a conflicted store file through the YAML entry point', () => {
  it('is one merge-conflict error at the first marker, instead of the syntax errors the markers make', () => {
    const r = parseFullYaml('global/01JG1000000000000000000000.yaml', MERGED);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.line, d.col, d.lineText])).toEqual([
      ['merge-conflict', 'error', 2, 1, '<<<<<<< HEAD'],
    ]);
    expect(r.diagnostics[0]!.message).toContain('2-6');
  });

  it('is found even where the markers parse as YAML text (a quoted value in a flow mapping)', () => {
    const quiet = '{text: "Never drop\n<<<<<<< HEAD\n=======\n>>>>>>> feature\nproduction data"}\n';
    expect(parseFullYaml('global/x.yaml', quiet).diagnostics.map((d) => d.code)).toEqual(['merge-conflict']);
  });
});
