/**
 * The files a package manager writes in the package it works on (docs/guard.md, "Shell commands"): `npm install x`
 * writes `package.json` and `package-lock.json`, `cargo add x` `Cargo.toml` and `Cargo.lock`. The package is the
 * nearest folder up from where the command runs that holds the manager's manifest, which the hook finds on disk. Pure.
 */

/** The files a package manager's command writes in the folder of the package it works on. */
export interface PackageInput {
  kind: 'package';
  /** The folder an option names for it (`npm --prefix DIR`, `pnpm -C DIR`), '' for where it runs. */
  file: string;
  /** The file whose folder is the package's (`package.json`): looked for from `file` up to the repository's top. */
  manifest: string;
  writes: string[];
  /** The script of `package.json` it runs (`npm run build`, `npm test`): read by the hook, as a shell script. */
  script?: string;
}

/** What a subcommand changes: the manifest and the lock files, or the lock files alone. */
type Change = 'both' | 'lock';

interface Manager {
  manifest: string;
  locks: string[];
  /** Each subcommand that writes, and what: `both` with packages named, else what `bare` says. */
  subs: Record<string, Change>;
  /** Subcommands that write only the lock files when given no package (`npm install`). */
  bare?: RegExp;
  /** What the manager run with no subcommand writes (`yarn`: an install). */
  alone?: Change;
  /** The options that name the folder it works in, each taking the next word (or `=DIR`). */
  folder?: RegExp;
  /** Its options that take the next word as their value, so that it is not read as the subcommand. */
  valued?: RegExp;
}

const NODE = 'package.json';
const MANAGERS: Record<string, Manager> = {
  npm: {
    manifest: NODE,
    locks: ['package-lock.json', 'npm-shrinkwrap.json'],
    subs: {
      install: 'both',
      i: 'both',
      add: 'both',
      in: 'both',
      isntall: 'both',
      uninstall: 'both',
      remove: 'both',
      rm: 'both',
      r: 'both',
      un: 'both',
      unlink: 'both',
      update: 'lock',
      up: 'lock',
      upgrade: 'lock',
      dedupe: 'lock',
      ddp: 'lock',
      prune: 'lock',
      shrinkwrap: 'lock',
      version: 'both',
      pkg: 'both',
      init: 'both',
      create: 'both',
      audit: 'lock',
    },
    bare: /^(?:install|i|in|isntall|add)$/,
    folder: /^--prefix$/,
    valued: /^(?:-w|--workspace|--registry|--cache|--loglevel|--userconfig)$/,
  },
  yarn: {
    manifest: NODE,
    locks: ['yarn.lock'],
    subs: { add: 'both', remove: 'both', upgrade: 'both', up: 'both', install: 'lock', dedupe: 'lock', init: 'both', version: 'both' },
    alone: 'lock',
    folder: /^--cwd$/,
  },
  pnpm: {
    manifest: NODE,
    locks: ['pnpm-lock.yaml'],
    subs: {
      add: 'both',
      remove: 'both',
      rm: 'both',
      un: 'both',
      uninstall: 'both',
      update: 'both',
      up: 'both',
      upgrade: 'both',
      install: 'both',
      i: 'both',
      init: 'both',
      dedupe: 'lock',
    },
    bare: /^(?:install|i)$/,
    folder: /^(?:-C|--dir)$/,
    valued: /^(?:-F|--filter|--reporter)$/,
  },
  bun: {
    manifest: NODE,
    locks: ['bun.lock', 'bun.lockb'],
    subs: { add: 'both', a: 'both', remove: 'both', rm: 'both', install: 'both', i: 'both', update: 'both', init: 'both' },
    bare: /^(?:install|i)$/,
    folder: /^--cwd$/,
  },
  poetry: {
    manifest: 'pyproject.toml',
    locks: ['poetry.lock'],
    subs: { add: 'both', remove: 'both', update: 'lock', lock: 'lock', install: 'lock', init: 'both', version: 'both' },
    folder: /^(?:-C|--directory|-P|--project)$/,
  },
  uv: {
    manifest: 'pyproject.toml',
    locks: ['uv.lock'],
    subs: { add: 'both', remove: 'both', lock: 'lock', sync: 'lock', init: 'both', version: 'both' },
    folder: /^(?:--directory|--project)$/,
  },
  cargo: {
    manifest: 'Cargo.toml',
    locks: ['Cargo.lock'],
    subs: {
      add: 'both',
      remove: 'both',
      rm: 'both',
      update: 'lock',
      'generate-lockfile': 'lock',
      build: 'lock',
      b: 'lock',
      check: 'lock',
      c: 'lock',
      test: 'lock',
      t: 'lock',
      run: 'lock',
      r: 'lock',
      fetch: 'lock',
    },
    folder: /^-C$/,
  },
  go: { manifest: 'go.mod', locks: ['go.sum'], subs: { get: 'both', mod: 'both', work: 'both' }, folder: /^-C$/ },
  bundle: {
    manifest: 'Gemfile',
    locks: ['Gemfile.lock'],
    subs: { add: 'both', remove: 'both', install: 'lock', update: 'lock', lock: 'lock', init: 'both' },
    alone: 'lock',
  },
  composer: {
    manifest: 'composer.json',
    locks: ['composer.lock'],
    subs: { require: 'both', remove: 'both', update: 'lock', install: 'lock', init: 'both', bump: 'both' },
    folder: /^(?:-d|--working-dir)$/,
  },
};

/** The script of `package.json` a Node.js package manager runs: `npm run NAME`, `yarn run NAME`, `npm test`, `pnpm start`. */
function scriptRun(name: string, sub: string | undefined, rest: readonly string[]): string | undefined {
  if (!/^(?:npm|yarn|pnpm|bun)$/.test(name) || sub === undefined) return undefined;
  if (/^(?:run|run-script|rum|urn)$/.test(sub) && (name === 'npm' || sub === 'run')) return rest[0];
  if (/^(?:t|tst|test)$/.test(sub) && (name === 'npm' || sub === 'test')) return 'test';
  return /^(?:start|stop|restart)$/.test(sub) && (name !== 'bun' || sub === 'start') ? sub : undefined;
}

/**
 * What a package manager's command `name ARGS` writes ({@link PackageInput}); undefined for no such program, or a
 * subcommand that changes no file of the package (`npm test`, `cargo doc`, `go mod graph`, `npm audit` without `fix`).
 */
export function packageInput(name: string, args: readonly string[]): PackageInput | undefined {
  const m = Object.hasOwn(MANAGERS, name) ? MANAGERS[name] : undefined;
  if (m === undefined) return undefined;
  let file = '';
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const joined = /^(--[^=]+)=(.*)$/.exec(a);
    if (m.folder?.test(a)) file = args[++i] ?? '';
    else if (joined && m.folder?.test(joined[1]!)) file = joined[2]!;
    else if (m.valued?.test(a)) i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  const [sub, ...rest] = words;
  const script = scriptRun(name, sub, rest);
  if (script !== undefined) return { kind: 'package', file, manifest: NODE, writes: [], script };
  let change: Change | undefined = sub === undefined ? m.alone : Object.hasOwn(m.subs, sub) ? m.subs[sub] : undefined;
  if (change === 'both' && rest.length === 0 && m.bare?.test(sub ?? '')) change = 'lock';
  // What each writes only in some forms: `npm audit fix`, `npm pkg set|delete|fix`, `go mod tidy|edit|init`.
  if (name === 'npm' && sub === 'audit' && rest[0] !== 'fix') change = undefined;
  if (name === 'npm' && sub === 'pkg' && !/^(?:set|delete|fix)$/.test(rest[0] ?? '')) change = undefined;
  if (name === 'go' && sub === 'mod' && !/^(?:tidy|edit|init)$/.test(rest[0] ?? '')) change = undefined;
  if (name === 'go' && sub === 'work' && !/^(?:init|use|edit|sync)$/.test(rest[0] ?? '')) change = undefined;
  if (change === undefined) return undefined;
  const writes = change === 'both' ? [m.manifest, ...m.locks] : [...m.locks];
  return { kind: 'package', file, manifest: m.manifest, writes };
}
