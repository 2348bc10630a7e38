import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { parseClientInput } from '../../src/core/guard-clients.ts';
import { shellWritesIn } from '../../src/core/guard-scripts.ts';
import { shellWrites } from '../../src/core/guard-shell-writes.ts';

describe('shellWrites: the files a shell command writes, as its text tells', () => {
  it.each([
    ['a redirection', 'echo x > secrets/k', ['secrets/k']],
    ['an append, its word in quotes in pieces', 'echo x >> "sec"rets/k', ['secrets/k']],
    ['without a blank', 'echo x>secrets/k', ['secrets/k']],
    [
      'stdout and stderr',
      'make &> secrets/log; make &>> secrets/log2; make >& secrets/log3',
      ['secrets/log', 'secrets/log2', 'secrets/log3'],
    ],
    ['a descriptor opened to write', 'exec 3>secrets/k; cat <> secrets/j', ['secrets/k', 'secrets/j']],
    ['an ANSI-C string', "echo x >$'sec\\x72ets/k'", ['secrets/k']],
    ['tee', 'echo x | tee -a secrets/k other', ['secrets/k', 'other']],
    ['touch and truncate', 'touch -d now secrets/a && truncate -s 0 secrets/b', ['secrets/a', 'secrets/b']],
    ['dd of=', 'dd if=/dev/zero of=secrets/k bs=1', ['secrets/k']],
    ['sed -i, its script left out', "sed -i 's/.git/x/' secrets/k", ['secrets/k']],
    ['sed -i -e, every operand a file', 'sed -i -e s/a/b/ secrets/k', ['secrets/k']],
    ['perl -pi -e', "perl -pi -e 's/a/b/' secrets/k", ['secrets/k']],
    ['install', 'install -m 600 key secrets/k', ['secrets/k', 'secrets/k/key']],
    ['a runner before the program', 'sudo -u root env X=1 nice -n 5 tee secrets/k', ['secrets/k']],
    ['a here-document: its body is text', "cat > secrets/k <<'EOF'\necho x > notes.md\nEOF\necho done", ['secrets/k']],
    [
      'a command substitution',
      'echo $(cp a secrets/k) `tee secrets/j` "$(touch secrets/i)"',
      ['secrets/k', 'secrets/k/a', 'secrets/j', 'secrets/i'],
    ],
    ['a process substitution', 'cat <(cp a secrets/k)', ['secrets/k', 'secrets/k/a']],
    ['backticks within backticks', 'echo `echo \\`touch secrets/k\\``; echo "`echo \\`touch secrets/j\\``"', ['secrets/k', 'secrets/j']],
    [
      'quotes and parentheses of a substitution in quotes, read afresh',
      'echo "$(echo "x" > secrets/k)" "$( (cd x) > secrets/j )"; echo "$(grep "a > b" f)" "$(echo \')\' > secrets/i)"',
      ['secrets/k', 'secrets/j', 'secrets/i'],
    ],
    [
      'a substitution a redirection writes to: its script, and the target as written',
      'echo x > >(tee secrets/k); echo y >$(mktemp); echo z >`touch secrets/j`',
      ['secrets/k', '$(mktemp)', '`touch secrets/j`', 'secrets/j'],
    ],
    [
      'the words after a substitution, out of quotes and in backticks: the command goes on past it',
      'rm -rf $(true) secrets/a; cp x `echo y` secrets/b; rm $(echo $(echo a) b) secrets/c; echo "$(rm -f $(x) secrets/d)"',
      ['$(true)', 'secrets/a', 'secrets/b', 'secrets/b/x', 'secrets/b/`echo y`', '$(echo $(echo a) b)', 'secrets/c', '$(x)', 'secrets/d'],
    ],
    ['eval', "eval 'echo x > secrets/k'", ['secrets/k']],
    ['bash -c', `bash -lc "tee secrets/k < a"; sh -c 'rm secrets/j'`, ['secrets/k', 'secrets/j']],
    ['a here-document given to a shell', 'bash <<EOF\nrm secrets/k\nEOF', ['secrets/k']],
    [
      'a script given to a shell on its input',
      "echo 'echo x > secrets/k' | sh; printf 'rm secrets/j' |& bash -s; cat <<'E' | sudo sh\ntouch secrets/i\nE\nsh <<< 'tee secrets/h'",
      ['secrets/k', 'secrets/j', 'secrets/i', 'secrets/h'],
    ],
    [
      'nothing: text printed to another program than a shell, or not piped',
      "echo 'rm secrets/k' | tee log; echo 'rm secrets/j' || sh",
      ['log'],
    ],
    ['find -exec', 'find . -name x -exec cp {} secrets/ \\;', ['secrets/', 'secrets/{}']],
    ['a group and a subshell', '{ echo x > secrets/k; } && (rm secrets/j)', ['secrets/k', 'secrets/j']],
    [
      "after the shell's own words",
      'if true; then rm secrets/a; fi; for f in x; do tee secrets/b; done; ! touch secrets/c',
      ['secrets/a', 'secrets/b', 'secrets/c'],
    ],
    [
      'a download',
      'curl -o secrets/a https://x; curl --output=secrets/b u; wget -O secrets/c u; wget -P secrets u',
      ['secrets/a', 'secrets/b', 'secrets/c', 'secrets/u'],
    ],
    [
      'a download named by its URL, in the folder -P or --output-dir gives, and the files it logs to',
      'wget -q -P secrets https://x/a/k.pem?v=1; wget https://x/; curl -sSLO https://x/j; curl --output-dir secrets -O https://x/i#f; ' +
        'curl -sSLo secrets/h u; curl -D secrets/g -csecrets/f u; wget -o secrets/e --save-cookies=secrets/d https://x/c',
      ['secrets/k.pem', 'index.html', 'j', 'secrets/i', 'secrets/h', 'secrets/g', 'secrets/f', 'secrets/e', 'secrets/d', 'c'],
    ],
    ['nothing: a download to standard output', 'curl -sSL https://x/k | sh -c true; curl -H "X: secrets/k" https://x/j', []],
    ['rsync', 'rsync -a -e ssh notes.md secrets/', ['secrets/', 'secrets/notes.md']],
    ['git mv and git rm', 'git mv a secrets/k; git -C . rm -r --cached secrets/j', ['secrets/k', 'secrets/k/a', 'a', 'secrets/j']],
    [
      'git checkout and git restore: the files put back',
      'git checkout -- secrets/k; git checkout HEAD~1 -- secrets/j a; git checkout main secrets/i; git restore -s HEAD secrets/h; git restore --staged --worktree secrets/g',
      ['secrets/k', 'secrets/j', 'a', 'secrets/i', 'secrets/h', 'secrets/g'],
    ],
    [
      'nothing: a branch switched to, a new branch, and a restore of the index alone',
      'git checkout main; git checkout -b secrets/k; git restore --staged secrets/j; git restore -S secrets/i',
      [],
    ],
    [
      'git stash push and git clean -f: the paths they put back or delete',
      'git stash push -m wip secrets/k; git stash -- secrets/j; git clean -fd secrets/i; git clean -f -e x -- secrets/h',
      ['secrets/k', 'secrets/j', 'secrets/i', 'secrets/h'],
    ],
    ['nothing: a stash of everything, a dry run of clean', 'git stash; git stash push; git clean -n secrets/k; git clean -fdx', []],
    [
      'patch: the file it rewrites, or the one -o writes',
      'patch secrets/k < fix.diff; patch -p1 -i fix.diff secrets/j; patch -o secrets/i a fix.diff; patch -d secrets h fix.diff; patch --output=secrets/g a',
      ['secrets/k', 'secrets/j', 'secrets/i', 'secrets/h', 'secrets/g'],
    ],
    [
      'nothing: a patch read from a file, which names its files itself',
      'patch -p1 < fix.diff; patch -p0 -i fix.diff; git apply fix.diff',
      [],
    ],
    [
      "a patch on the input of patch: the files its headers name (git apply's: test/core/guard-shell-inputs.test.ts)",
      "patch -p1 <<'EOF'\n--- a/secrets/k\t2026-01-01\n+++ b/secrets/k\n@@ -1 +1 @@\n-a\n+b\nEOF\npatch <<< '+++ secrets/g'",
      ['secrets/k', 'secrets/g', 'g'],
    ],
    [
      'nothing: git apply on its input, which names its files from the top (test/core/guard-shell-inputs.test.ts)',
      'git apply <<E\n+++ b/secrets/k\nE',
      [],
    ],
    [
      'a formatter or fixer run in place, through a launcher too',
      'npx prettier --write secrets/a.json; pnpm exec eslint --fix -c x.js secrets/b.ts; python3 -m black -l 100 secrets/c.py; ' +
        'ruff format secrets/d.py; ruff check --fix secrets/e.py; gofmt -w -r "a -> b" secrets/f.go; npx @biomejs/biome check --write secrets/g.ts; ' +
        'npm exec -- prettier -w secrets/h.md; /usr/bin/python3 -m isort secrets/i.py; clang-format -i --style=llvm secrets/j.c; shfmt -w secrets/k.sh',
      [
        'secrets/a.json',
        'secrets/b.ts',
        'secrets/c.py',
        'secrets/d.py',
        'secrets/e.py',
        'secrets/f.go',
        'secrets/g.ts',
        'secrets/h.md',
        'secrets/i.py',
        'secrets/j.c',
        'secrets/k.sh',
      ],
    ],
    [
      'nothing: a formatter or linter that only checks',
      'npx prettier --check secrets/a; eslint secrets/b; black --check secrets/c; ruff check secrets/d; ruff format --diff secrets/e; gofmt -l secrets/f; isort --check-only secrets/g; biome format secrets/h; rustfmt --check secrets/i.rs',
      [],
    ],
    ['sort -o', 'sort -o secrets/k a; sort -u -osecrets/j b; sort --output=secrets/i c', ['secrets/k', 'secrets/j', 'secrets/i']],
    ["rsync's -t, which keeps times", 'rsync -t a secrets/', ['secrets/', 'secrets/a']],
    [
      'xargs, its input appended to its command, or put for -I REPL',
      'echo secrets/k | xargs rm; xargs -0 rm -f <<EOF\nsecrets/j\nEOF\necho a b | xargs -I{} cp {} secrets/; echo c | xargs --replace=X cp X secrets/i',
      ['secrets/', 'secrets/{}', 'secrets/i', 'secrets/i/X', 'secrets/k', 'secrets/j', 'secrets/a', 'secrets/b', 'secrets/i/c'],
    ],
    ['nothing: xargs given what the text does not tell', 'find . -name "*.o" | xargs rm; ls | xargs echo', []],
    [
      'scp to here, not to another host; the archive 7z a writes',
      'scp -P 22 host:/etc/k secrets/; scp -r secrets host:/backup; rsync -a secrets/ host:x; 7z a -t7z out.7z secrets',
      ['secrets/', 'secrets/k', 'out.7z'],
    ],
    [
      'cp -f and mv -b, flags of no value',
      'cp -f a secrets/k; mv -b b secrets/',
      ['secrets/k', 'secrets/k/a', 'secrets/', 'secrets/b', 'b'],
    ],
    ['a -t after flags', 'cp -rt secrets a; mv -ftpub b', ['secrets', 'secrets/a', 'pub', 'pub/b', 'b']],
    ["a program named as an object's own key", 'toString x > secrets/a; constructor -a b', ['secrets/a']],
    [
      'words split by $IFS, and a first word of braces',
      'cp\x24{IFS}a\x24{IFS}secrets/k; {tee,secrets/j}; su -c "touch secrets/i" root',
      ['secrets/k', 'secrets/k/a', 'secrets/j', 'secrets/i'],
    ],
    [
      'words braces stand for',
      'echo x > se{c,}rets/k; tee {a,secrets/j}; cp a {b,secrets/{i,h}}; echo "{x,secrets/g}" > "{y,secrets/f}"; echo ${v} > {}',
      ['secrets/k', 'serets/k', 'a', 'secrets/j', 'secrets/h', 'secrets/h/a', 'secrets/h/b', 'secrets/h/i', '{y,secrets/f}', '{}'],
    ],
    ['nothing: text that only looks like a write', 'echo "> secrets/x"; git commit -m "rm secrets/x"; grep -e tee a', []],
    ['nothing: a comparison in [[ ]]', '[[ a > secrets/k ]] && echo y', []],
    [
      'nothing: arithmetic, and a test of several comparisons',
      'echo $(( 3 > 2 )) "$(( a > b ))"; (( x > 2 )) && [[ -f a && $x > 3 ]]; if [[ $y > 4 ]]; then :; fi',
      [],
    ],
    [
      'a subshell that looks like arithmetic, and a substitution within arithmetic',
      '((echo x > secrets/k) ); echo $((echo y > secrets/j) ); echo $(( $(touch secrets/i) + 1 ))',
      ['secrets/k', 'secrets/j', 'secrets/i'],
    ],
    [
      'nothing but its substitutions: arithmetic holding one, in quotes too, its `>` a comparison',
      'echo $(( $(f) > 2 )) "$(( $(g) > 3 ))"; (( $(h) > 4 )) && echo $(( `i` > 5 ))',
      [],
    ],
    [
      'the substitutions in arithmetic, which run',
      'echo $(( $(touch secrets/a) > 2 )) "$(( $(touch secrets/b) > 2 ))"; (( `touch secrets/c` > 2 ))',
      ['secrets/a', 'secrets/b', 'secrets/c'],
    ],
    [
      "a substitution in quotes to its own `)`: past a case's patterns, a comment, ${…} and $'…'",
      'echo "$(case x in a) echo;; (b|c) echo;; esac; echo x > secrets/k)"; echo "$(echo x # )\n echo y > secrets/j)"; ' +
        'echo "$(echo ${x%)} > secrets/i)" "$(echo $\'a\\\')\' > secrets/h)"; echo "$(case x in a) echo esac;; b) echo > secrets/g;; esac)"',
      ['secrets/k', 'secrets/j', 'secrets/i', 'secrets/h', 'secrets/g'],
    ],
    [
      'a substitution in quotes past a here-document whose body holds a `)` line',
      'echo "$(cat <<X\n)\nX\necho x > secrets/k)"; echo "$(cat <<-\'Y\'\n\t)\n\tY\ntouch secrets/j)"',
      ['secrets/k', 'secrets/j'],
    ],
    [
      "a shift in a substitution's arithmetic, which opens no here-document",
      'echo "$(echo $((1<<2))\n)"; echo x > secrets/k; echo "$(x=$((1 << 2)); echo\n)" > secrets/j',
      ['secrets/k', 'secrets/j'],
    ],
    [
      'backticks in quotes, to their own closing one past the quotes within',
      'echo "`echo "a b" > secrets/k`"; echo "x`touch "secrets/j"`y" > out',
      ['out', 'secrets/k', 'secrets/j'],
    ],
    ['nothing: a case that is a word of text', 'echo "$(echo case x) > secrets/k"', []],
    ['nothing: devices and descriptors', 'make 2>&1 >/dev/null; echo x >&2; echo y > /dev/stderr', []],
  ])('%s', (_name, command, paths) => {
    expect(shellWrites(command).paths).toEqual(paths);
  });

  it('names what rm, find -delete and mv take away, and the folders cp and mv copy and move', () => {
    expect(shellWrites('rm -rf secrets build')).toEqual({
      paths: ['secrets', 'build'],
      removes: ['secrets', 'build'],
      moves: [],
      links: [],
      made: [],
      inputs: [],
    });
    expect(shellWrites('find secrets -name "*.pem" -delete')).toMatchObject({ removes: ['secrets'] });
    // A folder put back by git is every file below it, as one deleted is.
    expect(shellWrites('git restore secrets; git checkout -- .')).toMatchObject({ paths: ['secrets', '.'], removes: ['secrets', '.'] });
    expect(shellWrites('mv secrets/k pub')).toEqual({
      paths: ['pub', 'pub/k', 'secrets/k'],
      removes: [],
      links: [],
      made: [],
      inputs: [],
      moves: [
        { from: 'secrets/k', to: 'pub' },
        { from: 'secrets/k', to: 'pub/k' },
      ],
    });
    expect(shellWrites('cp -r -t secrets public').moves).toEqual([
      { from: 'public', to: 'secrets', copy: true },
      { from: 'public', to: 'secrets/public', copy: true },
    ]);
  });

  it('reads a shell given as an argv by its words (Codex CLI joins none of them)', () => {
    expect(shellWrites(['bash', '-lc', 'cp a secrets/k']).paths).toEqual(['secrets/k', 'secrets/k/a']);
  });

  it('names each file from every folder the script may be in, and no file where it writes none', () => {
    expect(shellWritesIn('cd secrets && echo x > k')).toEqual({ paths: ['k', 'secrets/k'] });
    expect(shellWritesIn('ls -la && git status')).toEqual({ paths: [] });
    // The folder's word is read as the lexer reads one: an ANSI-C string, a substitution's quotes in double quotes.
    expect(shellWritesIn("cd $'sec\\x72ets' && echo x > k").paths).toContain('secrets/k');
    expect(shellWritesIn('cd "secrets$(echo ")")" && echo x > k').paths).toContain('secrets$(echo ")")/k');
  });

  it('names a file written through a link the command made by its target too, a chain of links as well', () => {
    expect(shellWritesIn('ln -s secrets l && echo x > l/key').paths).toContain('secrets/key');
    expect(shellWritesIn('ln -s ../secrets sub/l; echo x > sub/l/key').paths).toContain('sub/../secrets/key');
    expect(shellWritesIn('ln -s secrets a; ln -s a b; cp x b/').paths).toContain('secrets/x');
    expect(shellWritesIn('ln secrets/key notes; echo x >> notes').paths).toContain('secrets/key');
  });

  it('names a symbolic link the command makes as written, not its target: a later write through it is followed on disk', () => {
    expect(shellWritesIn('ln -sf secrets/key keylink').paths).toEqual(['keylink', 'keylink/key']);
    expect(shellWritesIn('ln -s secrets/key l; echo x > l').paths).toContain('secrets/key');
    // A hard link is the file itself, which no later call's path tells.
    expect(shellWritesIn('ln secrets/key notes').paths).toContain('secrets/key');
  });

  it('refuses scripts within scripts nested past a few times the text, each read again; reads substitutions in quotes once', () => {
    expect(() => shellWrites(`${'eval '.repeat(50_000)}x`)).toThrow(UsageError);
    expect(shellWrites(`echo "${'$( '.repeat(50_000)}> secrets/k"`).paths).toEqual(['secrets/k']);
  });

  it('refuses braces that make more words than a few times the command, rather than read each', () => {
    expect(() => shellWrites(`echo ${'{a,b}'.repeat(40)} > secrets/k`)).toThrow(UsageError);
  });

  it('reads a command of 100 KB of everyday pieces within its bound of work, which counts each script read again', () => {
    const piece = 'npm test 2>&1 | tee log; v="$(git rev-parse "HEAD")"; [[ $v > a ]] && echo "$(( 1 > 2 ))" >&2;\n';
    expect(shellWrites(piece.repeat(Math.ceil(100_000 / piece.length))).paths).toEqual(['log']);
    // Arithmetic not closed, or holding a substitution, is looked at once, not again from each `$((` within it.
    expect(shellWrites(`echo ${'$(( '.repeat(30_000)}$(touch secrets/k)`).paths).toEqual(['secrets/k']);
    // Arithmetic holding substitutions, and substitutions in quotes that case patterns leave open, each read once.
    expect(shellWrites('echo $(( $(f) > 2 )) "$(( `g` < 1 ))"; '.repeat(5_000)).paths).toEqual([]);
    const cases = '$(case x in a) echo;; esac; '.repeat(10_000);
    expect(shellWrites(`echo "${cases}echo x > secrets/k${')'.repeat(10_000)}"`).paths).toEqual(['secrets/k']);
  });
});

describe("a command given to another tool than a shell's", () => {
  it('is read for the files it writes as well, beside the files the tool names', () => {
    const input = { session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'mcp__serena__execute_shell_command' };
    const action = parseClientInput(JSON.stringify({ ...input, tool_input: { command: 'cp a secrets/k', path: 'notes.md' } }));
    expect(action.paths).toEqual(['notes.md', 'secrets/k', 'secrets/k/a']);
  });
});

describe('shellWrites, commands run by their words however deep', () => {
  it('names a move or copy repeated in a command once, so it is no more paths than the hook judges', () => {
    expect(shellWritesIn('cp a b c d e f g h secrets/; '.repeat(4_000)).moves).toHaveLength(16);
  });

  it('reads a find of thousands of -execs, and a command of thousands of links of one name, each -exec and link once', () => {
    expect(shellWrites(`find . ${'-exec rm {} + '.repeat(10_000)}-exec cp a secrets/ ;`).paths).toContain('secrets/a');
    expect(shellWritesIn(`${'ln -s secrets l; '.repeat(2_000)}echo x > l/k`).paths).toContain('secrets/k');
  });

  it('reads find -exec within find -exec, and refuses a chain past a few times the text rather than overflow', () => {
    expect(shellWrites('find . -exec find . -exec cp {} secrets/ ; ;').paths).toContain('secrets/{}');
    expect(() => shellWrites(`${'find . -exec '.repeat(100_000)}cp a secrets/k`)).toThrow(UsageError);
  });
});
