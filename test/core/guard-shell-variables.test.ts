// The values a shell script gives its variables, and the paths a word naming one stands for (docs/guard.md, "Shell
// commands").
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { expandVariables, recordVariables, type Variables } from '../../src/core/guard-shell-variables.ts';
import { shellWrites } from '../../src/core/guard-shell-writes.ts';

describe('a word that names a variable the script gives a value', () => {
  it.each([
    ['an assignment alone', 'F=secrets/k; echo x > "$F"', ['$F', 'secrets/k']],
    ['braces, and an export', 'export D=secrets && cp a "${D}/"', ['${D}/', 'secrets/', '${D}/a', 'secrets/a']],
    ['local and declare with options, several at once', 'declare -r A=x B=secrets/k; rm -f $B', ['$B', 'secrets/k']],
    ['each word of a for loop', 'for f in secrets/a.pem docs/*.md; do sed -i s/a/b/ "$f"; done', ['$f', 'secrets/a.pem', 'docs/*.md']],
    ['a loop within if', 'if true; then for x in a b; do rm $x; done; fi', ['$x', 'a', 'b']],
    [
      'two variables in one path, each value of each',
      'for a in x y; do for b in 1 2; do touch $a/$b; done; done',
      ['$a/$b', 'x/1', 'x/2', 'y/1', 'y/2'],
    ],
    ['a value given twice, and `+=`', 'F=a; F=b; F+=c; echo > $F', ['$F', 'a', 'b', 'c']],
    ['an assignment before one command, taken for the script', 'OUT=secrets/k sh -c "true"; echo > $OUT', ['$OUT', 'secrets/k']],
    ['a variable it gives no value, as written', 'echo x > "$HOME/k" $UNSET', ['$HOME/k']],
  ])('%s', (_name, command, paths) => {
    expect(shellWrites(command).paths).toEqual(paths);
  });

  it('names what rm and mv take away through a variable too', () => {
    const w = shellWrites('D=secrets; rm -r "$D"; mv "$D" pub');
    expect(w.removes).toEqual(['$D', 'secrets']);
    expect(w.moves.map((m) => [m.from, m.to])).toEqual([
      ['$D', 'pub'],
      ['secrets', 'pub'],
      ['$D', 'pub/$D'],
      ['$D', 'pub/secrets'],
      ['secrets', 'pub/$D'],
      ['secrets', 'pub/secrets'],
    ]);
  });

  it('refuses a path of more values than the hook judges, rather than leave some out', () => {
    const vars: Variables = new Map();
    recordVariables(['for', 'a', 'in', ...Array.from({ length: 300 }, (_, i) => `v${i}`)], vars);
    expect(expandVariables('$a/$a', vars, 100_000)).toHaveLength(90_001);
    expect(expandVariables('$a/$a/$a', vars, 100_000)).toBeUndefined();
    const words = Array.from({ length: 400 }, (_, i) => `v${i}`).join(' ');
    expect(() => shellWrites(`for a in ${words}; do touch $a/$a/$a; done`)).toThrow(UsageError);
  });
});
