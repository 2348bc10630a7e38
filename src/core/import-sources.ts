/**
 * The instruction files `agents import` knows, and where each one applies:
 * which scope its rules belong to. Pure: paths and front matter in, kinds
 * and scopes out (docs/import.md).
 */

import { isName } from './names.ts';
import { withoutAccents } from './normalise.ts';
import { commaFreeGlobs, globProblem, globUnder } from './globs.ts';
import { describeCharacter, findUnsafe, quoteText } from './plain-text.ts';

export const IMPORT_KINDS = [
  'agents-md',
  'claude-md',
  'gemini-md',
  'copilot',
  'copilot-instructions',
  'cursor',
  'cursorrules',
  'windsurfrules',
  'windsurf',
  'clinerules',
  'ruler',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The kind of a repository-relative path, or undefined when it is no instruction file the tool knows. */
export function instructionKind(rel: string): ImportKind | undefined {
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  // ruler keeps its sources (an AGENTS.md among them) in .ruler/ and writes the agents' files from them.
  if (/^(.+\/)?\.ruler\/(.+\/)?[^/]+\.md$/.test(rel)) return 'ruler';
  if (base === 'AGENTS.md') return 'agents-md';
  if (base === 'CLAUDE.md' || base === 'CLAUDE.local.md') return 'claude-md';
  if (base === 'GEMINI.md') return 'gemini-md';
  if (rel === '.github/copilot-instructions.md') return 'copilot';
  if (/^\.github\/instructions\/(.+\/)?[^/]+\.instructions\.md$/.test(rel)) return 'copilot-instructions';
  if (/^(.+\/)?\.cursor\/rules\/(.+\/)?[^/]+\.mdc?$/.test(rel)) return 'cursor';
  if (base === '.cursorrules') return 'cursorrules';
  if (base === '.windsurfrules') return 'windsurfrules';
  if (/^\.windsurf\/rules\/(.+\/)?[^/]+\.md$/.test(rel)) return 'windsurf';
  if (base === '.clinerules' || /^\.clinerules\/(.+\/)?[^/]+\.md$/.test(rel)) return 'clinerules';
  return undefined;
}

/** git pathspecs that find every kind above (for `git ls-files`). */
export const IMPORT_PATHSPECS: readonly string[] = [
  ':(glob)**/AGENTS.md',
  ':(glob)**/CLAUDE.md',
  ':(glob)**/CLAUDE.local.md',
  ':(glob)**/GEMINI.md',
  '.github/copilot-instructions.md',
  ':(glob).github/instructions/**/*.instructions.md',
  ':(glob)**/.cursor/rules/**/*.md',
  ':(glob)**/.cursor/rules/**/*.mdc',
  ':(glob)**/.cursorrules',
  ':(glob)**/.windsurfrules',
  ':(glob).windsurf/rules/**/*.md',
  '.clinerules',
  ':(glob).clinerules/**/*.md',
  ':(glob)**/.ruler/**/*.md',
];

/** Where a file's rules go: everywhere, or a project with the globs of the files it covers. */
export type ImportTarget =
  | { kind: 'global' }
  /**
   * `given`: the name is `--project`'s, not one made from the file's place. `wider`: longer names made with the
   * folders between the rules' folder and the file (`fe/style.mdc` → `fe-style`), nearest first, for a name that
   * other paths take too.
   */
  | { kind: 'project'; name: string; paths: string[]; given?: true; wider?: string[] }
  | { kind: 'skip'; why: string };

/** What the front matter says about where a rule file applies (Cursor, Copilot, Windsurf, Cline). */
export interface AppliesTo {
  globs?: string[];
  alwaysApply?: boolean;
  /** A Windsurf rule's `trigger` (but always_on, which is `alwaysApply`): said when the rule is skipped. */
  trigger?: string;
}

/** Windsurf's triggers that leave a rule to a request: an @mention (manual), or the model judging its description. */
const WINDSURF_ON_REQUEST: Record<string, string> = {
  manual: 'Windsurf applies it only when it is @mentioned',
  model_decision: 'Windsurf applies it only when the model judges its description relevant',
};

/** The front matter key whose value is a rule's globs: Copilot's `applyTo`, Cline's `paths`, Cursor's and Windsurf's `globs`. */
export function globKey(kind: ImportKind): string {
  return kind === 'copilot-instructions' ? 'applyTo' : kind === 'clinerules' ? 'paths' : 'globs';
}

/** Front matter values as Cursor, Copilot, Windsurf and Cline write them. */
export function appliesTo(kind: ImportKind, front: Record<string, unknown> | undefined): AppliesTo {
  if (front === undefined) return {};
  const out: AppliesTo = {};
  const globs = front[globKey(kind)];
  const list = globList(globs);
  if (list.length > 0) out.globs = list;
  // A quoted "true" says what the author meant as plainly as the boolean: read as a word, the rule would be skipped
  // as one an agent reads only on request, with a reason that contradicts its own front matter.
  const always = typeof front.alwaysApply === 'string' ? front.alwaysApply.trim().toLowerCase() : front.alwaysApply;
  if (always === true || always === 'true') out.alwaysApply = true;
  else if (always === false || always === 'false') out.alwaysApply = false;
  if (kind === 'windsurf' && front.trigger !== undefined && front.trigger !== null) {
    // Windsurf's trigger says how a rule applies, whatever else the front matter holds: globs count only for
    // `trigger: glob`, so a manual rule's globs never make it a standing rule of their files.
    const trigger = String(front.trigger).trim();
    if (trigger === 'always_on') return { alwaysApply: true };
    if (trigger !== 'glob') return { trigger };
    delete out.alwaysApply;
    out.trigger = trigger;
  }
  return out;
}

function globList(value: unknown): string[] {
  // An item of a YAML list may be a comma-separated list itself (`- src/**/*.ts,lib/**/*.ts`), as the string form is:
  // taken whole, it would be one glob that matches no file, and the rule would reach no agent.
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((g) => (typeof g === 'string' ? topLevelItems(g) : []))
    .flatMap((g) => spreadFolders(g.trim()))
    .map((g) => g.trim().replace(/^\.\//, ''))
    .filter((g) => g !== '');
}

/** The most globs one glob's alternatives are spread into: past it, the glob stays as written (and is refused so). */
const MAX_SPREAD = 100;

/**
 * A glob whose `{…}` holds a "/" (`{apps/web,packages}/**`) as a glob per alternative, which match the same files:
 * the agents spread such a brace into folders, where a project's paths take alternatives within one segment only.
 */
function spreadFolders(glob: string): string[] {
  if (!/\{[^}]*\//.test(glob)) return [glob];
  const spread = commaFreeGlobs(glob, MAX_SPREAD);
  return typeof spread === 'string' ? [glob] : [...new Set(spread)];
}

/**
 * A comma-separated list of globs split at its top-level commas only: the comma of a brace alternation
 * (`**\/*.{ts,tsx}`) or of a character class belongs to its glob.
 */
function topLevelItems(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/** A project name from a folder or file name: lower case, the characters names allow. */
export function projectName(from: string): string | undefined {
  // "ça/été" is the project ca-ete, not one made of the letters that have no accent (t).
  const name = withoutAccents(from.toLowerCase())
    .replace(/\.(instructions\.md|mdc|md)$/, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 64);
  return isName(name) && name !== '.' && name !== '..' ? name : undefined;
}

/**
 * Where the rules of the file at `rel` apply. A file at the top → global; a
 * nested AGENTS.md/CLAUDE.md/GEMINI.md (or a nested `.cursor/rules`,
 * `.ruler`) → the project of its folder, `DIR/**`; a rule file with globs →
 * a project with those globs (named after the file); `alwaysApply` (or
 * `applyTo: "**"`) → global. `project` overrides the derived name; `global`
 * puts the file's rules in the global scope, wherever it applies.
 */
export function importTarget(rel: string, kind: ImportKind, applies: AppliesTo, project?: string, global = false): ImportTarget {
  if (global) return { kind: 'global' };
  const dir = folderOf(rel, kind);
  // `written`: the globs as the file gives them, which a refusal names, where `paths` are from the repository's top.
  const named = (fallback: string | undefined, paths: string[], written: readonly string[] = paths): ImportTarget => {
    const name = project ?? (fallback === undefined ? undefined : projectName(fallback));
    if (name === undefined) return { kind: 'skip', why: `no project name can be made from ${rel}: give one with --project` };
    // The folder goes into the project's globs as written: `app[1]/**` would cover app1/, not app[1]/, and the
    // export would carry the file's rules to another folder's agents.
    const pattern = /[[\]*?{}]/.exec(dir);
    if (pattern !== null)
      return {
        kind: 'skip',
        why: `its folder ${quoteText(dir)} holds "${pattern[0]}", which a project's paths read as a pattern, so they would cover other folders: rename the folder, or import the file alone with --global`,
      };
    // A glob project.yaml would refuse (one that leaves the repository…) skips this file, not the whole import.
    for (const [i, g] of paths.entries()) {
      const problem = globProblem(g);
      if (problem !== undefined) {
        const as = written[i] === g ? '' : ` ("${g}" from the repository's top)`;
        return { kind: 'skip', why: `its glob "${written[i]}"${as} ${problem}: fix the file's globs` };
      }
      // project.yaml holds plain text only (docs/store-format.md): a folder named with a newline or a control
      // character gives a glob the project's file would refuse, and the whole import with it.
      const unsafe = findUnsafe(g, false);
      if (unsafe !== undefined)
        return {
          kind: 'skip',
          why: `its glob ${quoteText(g)} holds ${describeCharacter(unsafe.codePoint)}, which project.yaml refuses: rename the folder, or import the file alone with --global`,
        };
    }
    return project === undefined ? { kind: 'project', name, paths } : { kind: 'project', name, paths, given: true };
  };
  // A nested rule file's globs are its folder's: one that climbs out of it (`../../lib/**`) may still be inside.
  const resolved = applies.globs?.map((g) => globUnder(dir, g));
  // One glob that holds every file below a folder (`**`, `**/*`, `**/**`) leaves the others nothing to add: as a
  // project of those globs, the rule would cover every file and overlap every other project, skipping their files.
  const everything = (under: string) =>
    resolved?.some((g) => g.startsWith(under) && EVERY_FILE.test(g.slice(under.length))) === true &&
    resolved.every((g) => g.startsWith(under));
  if (applies.alwaysApply === true || everything(dir === '' ? '' : `${dir}/`)) {
    return dir === '' ? { kind: 'global' } : named(dir.slice(dir.lastIndexOf('/') + 1), [`${dir}/**`]);
  }
  // One that climbs to the top (`../../**`) covers every file, as a top rule file's `**` does.
  if (everything('')) return { kind: 'global' };
  if (applies.globs !== undefined) {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const target = named(base, resolved!, applies.globs);
    const wider = project === undefined ? subfolderNames(rel, kind, base) : [];
    return target.kind === 'project' && wider.length > 0 ? { ...target, wider } : target;
  }
  if (kind === 'cursor' || kind === 'windsurf' || kind === 'copilot-instructions') {
    // Neither always on nor tied to files: an agent reads it only when asked (a Copilot instruction without applyTo
    // only when attached to a chat), so it is no standing rule, unless the user names the project it belongs to.
    if (project !== undefined) return { kind: 'project', name: project, paths: [], given: true };
    return { kind: 'skip', why: onRequestWhy(kind, applies.trigger) };
  }
  if (dir === '') return project === undefined ? { kind: 'global' } : { kind: 'project', name: project, paths: [], given: true };
  return named(dir.slice(dir.lastIndexOf('/') + 1), [`${dir}/**`]);
}

/** A glob of `**` segments alone (the last one may be `*`): every file below the folder it starts from. */
const EVERY_FILE = /^\*\*(\/\*\*)*(\/\*)?$/;

/** The folder each kind of rule file is kept in, below which it may stand in folders of its own. */
export const RULE_FOLDERS: Partial<Record<ImportKind, string>> = {
  cursor: '.cursor/rules',
  'copilot-instructions': '.github/instructions',
  windsurf: '.windsurf/rules',
  clinerules: '.clinerules',
};

/**
 * Names of a rule file made with the folders between its rules' folder and it, nearest first
 * (`.cursor/rules/web/fe/style.mdc` → `fe-style`, `web-fe-style`): what tells two files of one name apart.
 */
function subfolderNames(rel: string, kind: ImportKind, base: string): string[] {
  const marker = RULE_FOLDERS[kind];
  const at = marker === undefined ? -1 : `/${rel}`.lastIndexOf(`/${marker}/`);
  if (at < 0) return [];
  const folders = rel
    .slice(at + marker!.length + 1)
    .split('/')
    .slice(0, -1);
  const out: string[] = [];
  for (let n = 1; n <= folders.length; n++) {
    const name = projectName([...folders.slice(-n), base].join('-'));
    if (name !== undefined && !out.includes(name)) out.push(name);
  }
  return out;
}

/** Why a rule that applies only on request is skipped, in the words of its own tool's front matter. */
function onRequestWhy(kind: ImportKind, trigger: string | undefined): string {
  if (kind === 'copilot-instructions')
    return 'the instructions apply only when attached to a chat (no applyTo): import them with --project, or give them an applyTo';
  if (kind === 'cursor')
    return 'the rule applies only when an agent asks for it (no globs, not alwaysApply): import it with --project or set its globs';
  const fix = 'import it with --project, or set trigger: always_on (or trigger: glob with its globs)';
  if (trigger === undefined) return `the rule has no trigger and no globs, so Windsurf applies it only on request: ${fix}`;
  if (trigger === 'glob')
    return 'its trigger is glob but it has no globs, so it applies to no file: set its globs, or import it with --project';
  const how = WINDSURF_ON_REQUEST[trigger];
  if (how !== undefined) return `its trigger is ${trigger}: ${how}, so it is no standing rule: ${fix}`;
  return `its trigger ${quoteText(trigger)} is none of Windsurf's (always_on, glob, model_decision, manual): ${fix}`;
}

/** The folder a file governs: where it stands, or above its `.cursor/rules`, `.ruler`, `.github` folder. */
export function folderOf(rel: string, kind: ImportKind): string {
  const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  const above = (marker: string) => {
    const at = `/${rel}`.lastIndexOf(`/${marker}/`);
    return at <= 0 ? '' : rel.slice(0, at - 1);
  };
  switch (kind) {
    case 'cursor':
      return above('.cursor');
    case 'ruler':
      return above('.ruler');
    case 'copilot':
    case 'copilot-instructions':
    case 'windsurf':
      return '';
    case 'clinerules':
      return rel === '.clinerules' || rel.startsWith('.clinerules/') ? '' : parent;
    default:
      return parent;
  }
}

/**
 * Front matter as Cursor and Windsurf read it: `key: value` lines, values
 * unquoted (`globs: **\/*.ts`, which YAML takes for an alias). Undefined
 * when a line is not of that form, or a value starts as YAML structure does
 * (`[`, `{`, a quote): such a file is YAML, and a broken one; so is one
 * that gives a key twice, whose first value the second would drop unsaid.
 */
export function lenientFrontMatter(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (!m || /^[[{"'&!|>]/.test(m[2]!)) return undefined;
    // Trailing blanks cut by hand: a lazy value before `[ \t]*$` tries every blank of a long run against the rest.
    let end = m[2]!.length;
    while (end > 0 && (m[2]![end - 1] === ' ' || m[2]![end - 1] === '\t')) end--;
    const v = m[2]!.slice(0, end);
    if (Object.hasOwn(out, m[1]!)) return undefined;
    out[m[1]!] = v === 'true' ? true : v === 'false' ? false : v;
  }
  return out;
}

/**
 * A glob YAML would read as structure: an alias (`*.ts`), a tag (`!vendor/**`), an anchor, a reserved indicator, a map
 * (`{src,lib}/**`, a brace of alternatives).
 */
const YAML_INDICATOR = /^[*!&%@`{]/;

/** A YAML string quoted whole, in double or single quotes. */
const QUOTED = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')$/;

/**
 * The front matter `text` with the globs under `key` quoted where YAML would misread them, as their agents read them:
 * a bare value to the end of its line (`globs: *.ts, src/**`), each item of a list below it (`- *.ts`), and each item
 * of a list in brackets (`[*.ts, *.{js,jsx}]`, whose brace's comma is the glob's). Undefined when none needed it.
 * Each line stays where it was.
 */
export function quoteBareGlobs(text: string, key: string): string | undefined {
  const lines = text.split('\n');
  let changed = false;
  let inList = false;
  const put = (i: number, line: string) => {
    changed ||= line !== lines[i];
    lines[i] = line;
  };
  for (const [i, raw] of lines.entries()) {
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = raw.slice(0, raw.length - cr.length);
    // A top-level key, its name bare or quoted, and its value on the line.
    const m = /^((["']?)([\w-]+)\2[ \t]*:[ \t]*)(.*?)[ \t]*$/.exec(line);
    if (m !== null) {
      const [, head, , name, value] = m as unknown as [string, string, string, string, string];
      inList = name === key && value === '';
      if (name !== key) continue;
      if (value.startsWith('[') && value.endsWith(']')) {
        // Empty items are none (a trailing comma), as YAML reads them.
        const items = topLevelItems(value.slice(1, -1))
          .map((g) => g.trim())
          .filter((g) => g !== '');
        // A boolean or null stays as YAML reads it: no glob, and named as such (globNotText), as it is in a valid list.
        const keep = (g: string) => QUOTED.test(g) || /^(?:true|false|null|~)$/i.test(g);
        put(i, `${head}[${items.map((g) => (keep(g) ? g : JSON.stringify(g))).join(', ')}]${cr}`);
      } else if (YAML_INDICATOR.test(value)) put(i, `${head}${JSON.stringify(value)}${cr}`);
      continue;
    }
    const item = inList ? /^([ \t]*-[ \t]+)(.*?)[ \t]*$/.exec(line) : null;
    if (item !== null && YAML_INDICATOR.test(item[2]!)) put(i, `${item[1]}${JSON.stringify(item[2])}${cr}`);
    // The list ends at a line that is no item, no blank and no comment, at the margin.
    else if (item === null && /^[^\s#-]/.test(line)) inList = false;
  }
  return changed ? lines.join('\n') : undefined;
}
