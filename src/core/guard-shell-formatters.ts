/**
 * The files a formatter or fixer rewrites in place, as its arguments tell (docs/guard.md, "Shell commands"):
 * `prettier --write`, `eslint --fix`, `black`, `ruff format`, `gofmt -w`… each file it is given. A folder it is given
 * is judged by its name: the tool skips git's folder and what its ignore files list, which the hook cannot tell. Pure.
 */
import { basename } from './guard-shell-lex.ts';
import { languageOf } from './guard-shell-programs.ts';

/** How one program rewrites: whether these arguments make it write, and the options that take the next word. */
interface Formatter {
  /** Whether these arguments (after its subcommand, given apart) make it write. */
  writes: (args: readonly string[], sub: string) => boolean;
  valued?: RegExp;
  /** The subcommands that format (`ruff format`, `biome check`); absent: the program itself does. */
  sub?: RegExp;
}

const has =
  (...flags: string[]) =>
  (args: readonly string[]) =>
    args.some((a) => flags.includes(a) || flags.some((f) => a.startsWith(`${f}=`)));
const unless =
  (...flags: string[]) =>
  (args: readonly string[]) =>
    !has(...flags)(args);

const FORMATTERS: Record<string, Formatter> = {
  prettier: {
    writes: has('--write', '-w'),
    valued:
      /^--(?:config|ignore-path|plugin|parser|stdin-filepath|log-level|cache-location|cache-strategy|print-width|tab-width|trailing-comma|arrow-parens|end-of-line|prose-wrap|quote-props|config-precedence|cursor-offset|range-start|range-end)$/,
  },
  eslint: {
    writes: has('--fix'),
    valued:
      /^-[cfo]$|^--(?:config|ext|rulesdir|parser|parser-options|resolve-plugins-relative-to|ignore-path|ignore-pattern|format|output-file|max-warnings|cache-location|rule|plugin|global|env|fix-type|stdin-filename)$/,
  },
  stylelint: {
    writes: has('--fix'),
    valued: /^-[cof]$|^--(?:config|config-basedir|ignore-path|ignore-pattern|output-file|formatter|custom-syntax|max-warnings)$/,
  },
  biome: {
    sub: /^(?:format|check|lint|migrate)$/,
    writes: has('--write', '--apply', '--apply-unsafe', '--fix', '--unsafe'),
    valued: /^--(?:config-path|max-diagnostics|vcs-root|stdin-file-path|reporter|log-level|log-kind|diagnostic-level)$/,
  },
  black: {
    writes: unless('--check', '--diff'),
    valued:
      /^-[ltW]$|^--(?:line-length|target-version|config|include|exclude|extend-exclude|force-exclude|stdin-filename|workers|required-version)$/,
  },
  ruff: {
    sub: /^(?:format|check)$/,
    writes: (args, sub) => (sub === 'format' ? unless('--check', '--diff')(args) : has('--fix', '--unsafe-fixes')(args)),
    valued:
      /^-o$|^--(?:config|select|ignore|extend-select|line-length|target-version|output-format|output-file|exclude|stdin-filename|cache-dir)$/,
  },
  isort: {
    writes: unless('--check-only', '-c', '--check', '--diff', '--stdout', '-d'),
    valued: /^-[lps]$|^--(?:settings-path|sp|line-length|profile|skip|src)$/,
  },
  autopep8: { writes: has('-i', '--in-place'), valued: /^--(?:max-line-length|select|ignore|aggressive-level)$/ },
  gofmt: { writes: has('-w'), valued: /^-r$/ },
  goimports: { writes: has('-w'), valued: /^-local$/ },
  rustfmt: { writes: unless('--check'), valued: /^--(?:edition|config-path|emit|config|color)$/ },
  'clang-format': { writes: has('-i'), valued: /^--?(?:style|assume-filename|lines|offset|length)$/ },
  shfmt: { writes: has('-w', '--write'), valued: /^-(?:i|ln)$/ },
  dprint: { sub: /^fmt$/, writes: () => true, valued: /^-c$|^--(?:config|excludes|plugins)$/ },
};

/** What runs a package's program (`npx prettier`, `pnpm exec eslint`, `python -m black`): its words after the launcher. */
function launched(words: readonly string[]): readonly string[] {
  const first = basename(words[0] ?? '');
  const second = words[1] ?? '';
  // The launcher's own options (`npx --yes`, `-p PKG`), then the program.
  const skip = (from: number, valued?: RegExp) => {
    let i = from;
    while (i < words.length && words[i]!.startsWith('-')) i += valued?.test(words[i]!) ? 2 : 1;
    return words.slice(i);
  };
  if (/^(?:npx|bunx|uvx)$/.test(first)) return skip(1, /^(?:-p|--package|--from|--with)$/);
  if (first === 'npm' && /^(?:exec|x)$/.test(second)) return skip(2, /^(?:-p|--package|-c|--call)$/);
  if (first === 'pnpm' || first === 'yarn') return /^(?:exec|dlx|run)$/.test(second) ? skip(2) : words.slice(1);
  if (first === 'pipx' && second === 'run') return skip(2, /^--spec$/);
  if ((first === 'poetry' || first === 'uv') && second === 'run') return skip(2, /^--with$/);
  if (languageOf(first) === 'python' && second === '-m') return words.slice(2);
  return words;
}

/** The files the formatter `words` runs rewrites, as named from where it runs; none for a command that is no formatter. */
export function formatted(words: readonly string[]): string[] {
  const run = launched(words);
  const name = basename(run[0] ?? '');
  const formatter = Object.hasOwn(FORMATTERS, name) ? FORMATTERS[name] : undefined;
  if (formatter === undefined) return [];
  const sub = formatter.sub === undefined ? '' : (run[1] ?? '');
  if (formatter.sub !== undefined && !formatter.sub.test(sub)) return [];
  const args = run.slice(formatter.sub === undefined ? 1 : 2);
  if (!formatter.writes(args, sub)) return [];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-')) files.push(a);
    else if (formatter.valued?.test(a)) i++;
  }
  return files;
}
