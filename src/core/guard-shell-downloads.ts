/**
 * The files `curl` and `wget` write, as their arguments tell (docs/guard.md, "Shell commands"): the download itself,
 * named by `-o`/`-O FILE` or by the last name of its URL in the folder `--output-dir` or `-P` gives, and the files
 * they log, dump headers or keep cookies in. Pure.
 */
import { inFolder } from './guard-shell-lex.ts';

/** The options of each that take the next word as their value, and those of them that name a file it writes. */
const OPTIONS = {
  curl: {
    valued:
      /^-[oDcdHXuAebFTKwxmrEyYzCQ]$|^--(?:output|output-dir|dump-header|cookie-jar|trace|trace-ascii|stderr|data|data-raw|data-binary|data-urlencode|header|request|user|user-agent|referer|cookie|form|upload-file|config|write-out|proxy|max-time|connect-timeout|retry|range|cert|key|cacert|url)$/,
    writes: /^-[Dc]$|^--(?:dump-header|cookie-jar|trace|trace-ascii|stderr)$/,
  },
  wget: {
    valued:
      /^-[oaiBeOPtTwQUlARDIX]$|^--(?:output-file|append-output|input-file|base|execute|output-document|directory-prefix|tries|timeout|wait|quota|user-agent|level|accept|reject|domains|include-directories|exclude-directories|header|user|password|post-data|post-file|referer|load-cookies|save-cookies|certificate|private-key|ca-certificate)$/,
    writes: /^-[oa]$|^--(?:output-file|append-output|save-cookies)$/,
  },
} as const;

/** The last name of a URL's path, as `curl -O` and `wget` name the file they save it as; `index.html` for none (wget's). */
function urlName(url: string): string {
  const path = url.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/, '').replace(/[?#].*$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || 'index.html';
}

/** The files `curl` or `wget` run with `args` writes, as named from where it runs. */
export function downloads(program: 'curl' | 'wget', args: readonly string[]): string[] {
  const { valued, writes } = OPTIONS[program];
  const out: string[] = [];
  const urls: string[] = [];
  const named: string[] = [];
  let dir: string | undefined;
  let remoteName = false;
  const take = (option: string, value: string) => {
    if (writes.test(option)) out.push(value);
    else if (option === '--url') urls.push(value);
    else if (program === 'curl' ? /^(?:-o|--output)$/.test(option) : /^(?:-O|--output-document)$/.test(option)) named.push(value);
    else if (program === 'curl' ? option === '--output-dir' : /^(?:-P|--directory-prefix)$/.test(option)) dir = value;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      urls.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') urls.push(a);
    else if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) take(a.slice(0, eq), a.slice(eq + 1));
      else if (valued.test(a)) take(a, args[++i] ?? '');
      else if (program === 'curl' && /^--remote-name(?:-all)?$/.test(a)) remoteName = true;
    }
    // Short options as getopt reads them: flags run together (`-sSLO`) until one that takes a value, which is the
    // rest of the word or the next word (`-sSLo FILE`, `-osecrets/k`).
    else
      for (let j = 1; j < a.length; j++) {
        const option = `-${a[j]}`;
        if (valued.test(option)) {
          take(option, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        if (program === 'curl' && option === '-O') remoteName = true;
      }
  }
  if (named.length > 0) out.push(...named.map((n) => (program === 'curl' ? inFolder(dir, n) : n)));
  else if (program === 'wget' || remoteName) out.push(...urls.map((u) => inFolder(dir, urlName(u))));
  return out;
}
