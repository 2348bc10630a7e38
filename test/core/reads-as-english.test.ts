import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readsAsEnglish } from '../../src/core/import-language.ts';
import { fcRuns } from '../helpers/fc-runs.ts';

describe('readsAsEnglish', () => {
  it('tells English prose from prose of another language, by script and by short words', () => {
    expect(readsAsEnglish(['- Always run the tests before you push.', '- Never commit secrets to the repository.'])).toBe(true);
    expect(
      readsAsEnglish(['- Immer die Tests ausführen, bevor du pushst.', '- Keine Geheimnisse in das Repository.', '- Nie auf main.']),
    ).toBe(false);
    // Words as long as the longest listed one ("toujours") count too.
    expect(readsAsEnglish(['- Toujours lancer les tests.', '- Toujours relire les changements.', '- Toujours signer.'])).toBe(false);
    expect(readsAsEnglish(['- テストを実行してからプッシュする', '- 秘密情報をコミットしない'])).toBe(false);
    // Terse phrases of neither, and words inside code, are English.
    expect(readsAsEnglish(['- 2-space indentation', '- TypeScript strict mode', '```', 'und und und die der das', '```'])).toBe(true);
  });

  it('reads a word as its lowered letters, whichever letters it is written with', () => {
    // The Kelvin sign lowers into "k": "\u212Aeine" is "keine", a word of another language.
    expect(readsAsEnglish(['\u212Aeine \u212Aeine \u212Aeine'])).toBe(false);
    // A long s is no "s": "iſt" is no "ist".
    expect(readsAsEnglish(['iſt iſt iſt'])).toBe(true);
    expect(readsAsEnglish(['NICHT Nicht nicht'])).toBe(false);
    // A word longer than the longest listed one, or running on into letters of another script, is none of them.
    expect(readsAsEnglish(['toujoursx toujoursx toujoursx'])).toBe(true);
    expect(readsAsEnglish(['undé undé undé'])).toBe(true);
  });

  it('answers as the definition it was written to (a scan of each line, each short word lowered and looked up)', () => {
    const token = fc.constantFrom(
      ...'the a An AND Or of TO in on for with by use This it You we all must should only can will'.split(' '),
      ...'der das Und ist NICHT mit für Für FÜR ein eine dem des wir nie auf zu le La les et est pas pour une du'.split(' '),
      ...'que qui ce sur toujours TOUJOURS jamais vous sont el los y es para con una del en se siempre nunca'.split(' '),
      ...'por lo más MÁS os um não NÃO com sempre é É il di che non per mai gli'.split(' '),
      ...'toujoursx siempres undé \u212Aeine iſt İS İs tests repository configuration x ab abcdefgh abcdefghi'.split(' '),
      'テスト',
      '秘密',
      'Ωμέγα',
      '\u{1D400}\u{1D401}',
      '😀',
      '\uD800',
      '\uDC00',
      '`und der`',
      '``',
      '`',
      'https://und.example/der',
      'http://x',
      '://',
      '```',
      '~~~',
      '  ```',
      '-',
      '.',
      ',',
      "'",
      '2-space',
      '\t',
    );
    const line = fc
      .array(fc.tuple(token, fc.constantFrom(' ', '', '  ', '-', ', ', '\t')), { maxLength: 12 })
      .map((parts) => parts.map(([t, sep]) => t + sep).join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        expect(readsAsEnglish(lines)).toBe(definition(lines));
      }),
      { numRuns: fcRuns(2000), seed: 20261206 },
    );
  });

  it('answers as the definition does on every file of the import corpus', () => {
    const root = join(import.meta.dirname, '../../fixtures/import/corpus');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      expect(readsAsEnglish(lines), file).toBe(definition(lines));
    }
  });
});

/** The function as first written: each line scanned alone, and each short word cut out, lowered and looked up in a set. */
function definition(lines: readonly string[]): boolean {
  const englishWords = new Set(
    (
      'the a an and or of to in on for with by from at as is are be not no do does use this that these it its you your ' +
      'we our all any each when if then than before after always never must should only can will'
    ).split(' '),
  );
  const otherWords = new Set(
    (
      'der das und ist nicht mit für ein eine einen dem den des wir sie immer keine nie oder auf werden wird sind zu auch ' +
      'le la les des et est pas pour avec une du ne que qui dans ce sur toujours jamais vous nous sont ' +
      'el los las y es para con una del en se siempre nunca por lo como más os um não com sempre é il di che non per mai gli'
    ).split(' '),
  );
  let letters = 0;
  let latin = 0;
  let english = 0;
  let other = 0;
  let fence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const prose = line.replace(/`[^`]*`/g, ' ').replace(/\bhttps?:\/\/\S+/g, ' ');
    let start = -1;
    for (let i = 0; i <= prose.length; ) {
      const ch = i < prose.length ? String.fromCodePoint(prose.codePointAt(i)!) : ' ';
      const isLetter = /\p{L}/u.test(ch);
      if (isLetter) {
        letters += ch.length;
        if (/\p{Script=Latin}/u.test(ch)) latin++;
        if (start < 0) start = i;
      } else if (start >= 0) {
        const word = prose.slice(start, i).toLowerCase();
        if (i - start <= 8 && englishWords.has(word)) english++;
        else if (i - start <= 8 && otherWords.has(word)) other++;
        start = -1;
      }
      i += ch.length;
    }
  }
  if (letters >= 10 && latin < letters / 2) return false;
  return !(other >= 3 && other > english);
}
