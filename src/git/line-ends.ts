import { configMatching, runGit } from './runner.ts';

/**
 * Which of `paths` (repository-relative files, new ones) a checkout would write with CRLF line ends, as git decides
 * it (gitattributes(5), "End-of-line conversion"): the `eol` attribute; else, for a path whose `text` attribute is
 * set or `auto`, core.autocrlf (true: CRLF, input: LF) and then core.eol (native: the platform's); for one whose
 * `text` is unspecified, core.autocrlf=true alone; never for `-text`. Written so, a file round-trips through git
 * unchanged, which core.safecrlf requires of `git add` (docs/adr/0606). Two processes, whatever the number of paths.
 */
export async function crlfInCheckout(top: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const [attrs, config] = await Promise.all([
    runGit(top, ['check-attr', '-z', '--stdin', 'text', 'eol'], paths.map((p) => `${p}\0`).join('')),
    configMatching(top, '^core\\.(autocrlf|eol)$'),
  ]);
  // The last one set wins, as git reads its files in order.
  const settings = new Map(config.map(([key, value]) => [key.toLowerCase(), value.trim().toLowerCase()]));
  const autocrlf = settings.get('core.autocrlf');
  const crlfByConfig = autocrlf === 'input' ? false : isTrue(autocrlf) ? true : undefined;
  const eol = settings.get('core.eol') ?? 'native';
  const textEol = crlfByConfig ?? (eol === 'crlf' || (eol === 'native' && process.platform === 'win32'));
  // Three fields an answer: the path, the attribute, its value (set, unset, unspecified, or the value given).
  const fields = attrs.toString('utf8').split('\0');
  const text = new Map<string, string>();
  const eolOf = new Map<string, string>();
  for (let i = 0; i + 2 < fields.length; i += 3) (fields[i + 1] === 'text' ? text : eolOf).set(fields[i]!, fields[i + 2]!);
  const out = new Set<string>();
  for (const p of paths) {
    const t = text.get(p) ?? 'unspecified';
    const e = eolOf.get(p) ?? 'unspecified';
    if (t === 'unset') continue;
    const crlf = e === 'crlf' ? true : e === 'lf' ? false : t === 'set' || t === 'auto' ? textEol : crlfByConfig === true;
    if (crlf) out.add(p);
  }
  return out;
}

/** A boolean of git's configuration read as git reads one. */
function isTrue(value: string | undefined): boolean {
  return value === 'true' || value === 'yes' || value === 'on' || value === '1';
}
