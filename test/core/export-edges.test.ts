import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  BEGIN_PREFIX,
  END_MARKER,
  TARGETS,
  beginMarker,
  blockFencedAt,
  frontMatterText,
  hashedText,
  leadingFrontMatter,
  newRenderedEntries,
  planExport,
  renderSections,
  scanBlock,
  unexpressedGlobs,
  yamlScalar,
  type ExportProject,
} from '../../src/core/export.ts';
import { mergeBlock, removeBlock } from '../../src/core/export-merge.ts';
import { renderStandalone } from '../../src/core/export-standalone.ts';
import { type AgentsError, UsageError } from '../../src/core/errors.ts';
import type { EffectiveEntry } from '../../src/core/resolve.ts';
import type { Severity } from '../../src/core/model.ts';
import { globMatches } from '../../src/core/globs.ts';
import { entry, sha256 } from '../helpers/effective.ts';

const hash = sha256;
const H = 'a'.repeat(64);

const ID1 = '01JDQ6X5Z8W4N3B2C1D0E9F8G1';
const ID2 = '01JDQ6X5Z8W4N3B2C1D0E9F8G2';
const ID3 = '01JDQ6X5Z8W4N3B2C1D0E9F8G3';
const ID4 = '01JDQ6X5Z8W4N3B2C1D0E9F8G4';
const G1 = entry(ID1, 'Never delete production data', { kind: 'global' });
const GW = entry(ID3, 'Say why', { kind: 'global' }, 'warning');
const P1 = entry(ID2, 'Amounts are integers of cents', { kind: 'project', project: 'billing' }, 'info');
const PW = entry(ID4, 'Log refunds', { kind: 'project', project: 'billing' }, 'warning');

const project = (name: string, paths: string[] | undefined, entries: EffectiveEntry[] = [P1, G1]): ExportProject => ({
  name,
  meta: paths === undefined ? {} : { paths },
  entries,
});

const HEAD = [
  '## Invariants',
  '',
  'Constraints on what you may do in this repository, kept as files in `.agents/` and written here by `agents export`.',
  'Each one ends with its id: `agents invariant show ID` tells where it comes from. Change them in the store, not here.',
];

/** renderSections' text: a blank line after the begin marker and before the end marker, as prettier prints them. */
const wrap = (text: string) => `\n${text}\n`;

describe('yamlScalar', () => {
  it.each([
    ['services/billing/**', 'services/billing/**'],
    ['.github/x', '.github/x'],
    ['_a', '_a'],
    ['-a', '-a'],
    // A lone dash after a key would open a block sequence: a file or folder named "-".
    ['-', '"-"'],
    ['Z9', 'Z9'],
    ['a*b?{c}[d],e!f-g', 'a*b?{c}[d],e!f-g'],
    ['*.ts', '"*.ts"'],
    ['?x', '"?x"'],
    ['a b', '"a b"'],
    ['a:b', '"a:b"'],
    ['a#', '"a#"'],
    ['', '""'],
    ['x\ny', '"x\\ny"'],
    ['true', '"true"'],
    ['FALSE', '"FALSE"'],
    ['null', '"null"'],
    ['Yes', '"Yes"'],
    ['no', '"no"'],
    ['on', '"on"'],
    ['OFF', '"OFF"'],
    ['~', '"~"'],
    ['nulls', 'nulls'],
    ['xtrue', 'xtrue'],
    ['trueish', 'trueish'],
    ['yes/no', 'yes/no'],
    // A YAML reader would take these for numbers (or infinity): a glob must stay a string.
    ['2024', '"2024"'],
    ['1e3', '"1e3"'],
    ['0x1F', '"0x1F"'],
    ['0o7', '"0o7"'],
    ['1_000', '"1_000"'],
    ['.5', '".5"'],
    ['-.5', '"-.5"'],
    ['-1', '"-1"'],
    ['.inf', '".inf"'],
    ['.NaN', '".NaN"'],
    ['2024/**', '"2024/**"'],
    ['.info', '.info'],
  ])('%j → %s', (value, expected) => {
    expect(yamlScalar(value)).toBe(expected);
    // What a YAML reader reads back is the string itself, whatever its shape.
    expect(parse(`globs: ${yamlScalar(value)}`).globs).toBe(value);
  });
});

/** A target's front matter, or the code of the error that refuses it. */
function frontOrCode(front: () => string[] | undefined): string[] | string | undefined {
  try {
    return front();
  } catch (error) {
    return (error as AgentsError).code;
  }
}

describe('TARGETS', () => {
  it("copilot's applyTo: an alternation is spread into globs of its own, so that no reader splits it; a comma in a name is refused", () => {
    const applyTo = (...paths: string[]) => TARGETS.copilot.projectFrontMatter!('web', { paths });
    expect(applyTo('src/{a,b}/**', 'docs/**')).toEqual(['applyTo: "src/a/**,src/b/**,docs/**"']);
    expect(applyTo('src/**/*.{ts,tsx}', 'lib/{x,y}/{m,n}.js')).toEqual([
      'applyTo: "src/**/*.ts,src/**/*.tsx,lib/x/m.js,lib/x/n.js,lib/y/m.js,lib/y/n.js"',
    ]);
    // No comma: written as given, braces and classes included.
    expect(applyTo('a/{b}/[xy]*')).toEqual(['applyTo: "a/{b}/[xy]*"']);
    for (const paths of [
      ['docs/a,b/**'],
      ['ok/**', 'x/[,;]/y'],
      ['x/{[,],b}/**'],
      ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}'],
    ]) {
      let thrown: unknown;
      try {
        applyTo(...paths);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, paths.join(' ')).toBeInstanceOf(UsageError);
      expect((thrown as UsageError).code).toBe('path-not-expressible');
      expect((thrown as UsageError).detail).toMatchObject({ project: 'web', index: paths.length - 1, path: paths.at(-1) });
    }
  });

  it('each target: its files and front matter', () => {
    const meta = { paths: ['a/**', 'b,c/**'] };
    const plain = { paths: ['**/*.ts', 'b/{x,y}/*.ts'] };
    const shown = Object.fromEntries(
      Object.entries(TARGETS).map(([name, s]) => [
        name,
        {
          name: s.name,
          root: s.root,
          nestedName: s.nestedName,
          projectDir: s.projectDir,
          file: s.projectFile?.('billing'),
          rootFrontMatter: s.rootFrontMatter,
          front: frontOrCode(() => s.projectFrontMatter?.('billing', meta)),
          plainFront: s.projectFrontMatter?.('billing', plain),
          noPaths: s.projectFrontMatter?.('billing', {}),
          maxChars: s.maxChars,
        },
      ]),
    );
    expect(shown).toEqual({
      'agents-md': { name: 'agents-md', root: 'AGENTS.md', nestedName: 'AGENTS.md' },
      'claude-md': { name: 'claude-md', root: 'CLAUDE.md', nestedName: 'CLAUDE.md' },
      'gemini-md': { name: 'gemini-md', root: 'GEMINI.md', nestedName: 'GEMINI.md' },
      copilot: {
        name: 'copilot',
        root: '.github/copilot-instructions.md',
        projectDir: '.github/instructions',
        file: '.github/instructions/agents-billing.instructions.md',
        // A comma in a name cannot be written in applyTo, whose commas separate the globs.
        front: 'path-not-expressible',
        plainFront: ['applyTo: "**/*.ts,b/x/*.ts,b/y/*.ts"'],
        noPaths: ['applyTo: ""'],
      },
      cursor: {
        name: 'cursor',
        root: '.cursor/rules/agents-global.mdc',
        projectDir: '.cursor/rules',
        file: '.cursor/rules/agents-billing.mdc',
        rootFrontMatter: ['description: Invariants that apply everywhere in this repository (exported by agents)', 'alwaysApply: true'],
        // Cursor reads the rest of the line as its globs, split at every comma: bare (quotes would be part of a
        // glob), alternations spread, a comma in a name refused.
        front: 'path-not-expressible',
        plainFront: [
          'description: Invariants of project billing (exported by agents)',
          'globs: **/*.ts,b/x/*.ts,b/y/*.ts',
          'alwaysApply: false',
        ],
        noPaths: ['description: Invariants of project billing (exported by agents)', 'globs: ', 'alwaysApply: false'],
      },
      windsurf: {
        name: 'windsurf',
        root: '.windsurf/rules/agents-global.md',
        projectDir: '.windsurf/rules',
        file: '.windsurf/rules/agents-billing.md',
        rootFrontMatter: ['trigger: always_on'],
        front: 'path-not-expressible',
        plainFront: ['trigger: glob', 'globs: **/*.ts,b/x/*.ts,b/y/*.ts'],
        noPaths: ['trigger: glob', 'globs: '],
        maxChars: 12_000,
      },
      cline: {
        name: 'cline',
        root: '.clinerules/agents-global.md',
        projectDir: '.clinerules',
        file: '.clinerules/agents-billing.md',
        front: ['paths:', '  - "a/**"', '  - "b,c/**"'],
        plainFront: ['paths:', '  - "**/*.ts"', '  - "b/{x,y}/*.ts"'],
        noPaths: ['paths:'],
      },
    });
  });

  it("cline: each path written as Cline's picomatch reads it, matching what the path matches", () => {
    // picomatch (as Cline calls it, dot: true) takes [!…] as a class holding "!", and ( ) | as a regular expression's.
    const picomatch = createRequire(import.meta.url)('picomatch') as (glob: string, o: { dot: boolean }) => (path: string) => boolean;
    const written: Record<string, string> = {
      'app/(marketing)/**': 'app/[(]marketing[)]/**',
      'docs/[!a-c]*.md': 'docs/[^a-c]*.md',
      'a/x|y/**': 'a/x[|]y/**',
      'a/{b}/*.ts': 'a/b/*.ts',
      'src/{api,(web)}/*.ts': 'src/{api,[(]web[)]}/*.ts',
      'a/[(]b/**': 'a/[(]b/**',
      'services/billing/**': 'services/billing/**',
      'lang/c++': 'lang/c[+][+]',
      'a/$$': 'a/[$][$]',
    };
    const front = TARGETS.cline.projectFrontMatter!('web', { paths: Object.keys(written) });
    expect(front).toEqual(['paths:', ...Object.values(written).map((g) => `  - ${JSON.stringify(g)}`)]);
    const files = [
      'app/(marketing)/page.tsx',
      'app/marketing/page.tsx',
      'docs/d1.md',
      'docs/a1.md',
      'docs/!1.md',
      'a/x|y/z',
      'a/x/z',
      'a/b/c.ts',
    ];
    const more = [
      'src/api/a.ts',
      'src/(web)/a.ts',
      'src/web/a.ts',
      'a/(b/z',
      'services/billing/x.ts',
      'lang/c+',
      'lang/c++',
      'a/$',
      'a/$$',
    ];
    for (const [path, glob] of Object.entries(written))
      for (const file of [...files, ...more])
        expect([path, file, picomatch(glob, { dot: true })(file)]).toEqual([path, file, globMatches(path, file)]);
  });

  it('the file name patterns match the files of a project name and nothing else', () => {
    const names = [
      'agents-billing.instructions.md',
      'agents-billing.mdc',
      'agents-billing.md',
      'agents-a1._-b.md',
      'agents-9x.md',
      'agents-.md',
      'agents-_x.md',
      'agents-Billing.md',
      'xagents-billing.md',
      'agents-billing.md.bak',
      'agents-billing.mdc.md',
    ];
    const matched = (re: RegExp | undefined) => names.filter((n) => re!.test(n));
    expect(matched(TARGETS.copilot.projectFilePattern)).toEqual(['agents-billing.instructions.md']);
    expect(matched(TARGETS.cursor.projectFilePattern)).toEqual(['agents-billing.mdc']);
    expect(matched(TARGETS.windsurf.projectFilePattern)).toEqual([
      'agents-billing.instructions.md',
      'agents-billing.md',
      'agents-a1._-b.md',
      'agents-9x.md',
      'agents-billing.mdc.md',
    ]);
    expect(matched(TARGETS.cline.projectFilePattern)).toEqual(matched(TARGETS.windsurf.projectFilePattern));
  });
});

describe('planExport: whole results', () => {
  it('a root file with front matter (a copy), a project file, notes naming the root file', () => {
    const files = planExport({
      targets: ['windsurf', 'windsurf'],
      global: [G1, GW],
      projects: [project('billing', ['services/billing/**', 'libs/*.ts'], [P1, PW, G1])],
      severities: ['error', 'info'],
      nested: true,
      storeRel: '.agents',
    });
    expect(files).toEqual([
      {
        path: '.windsurf/rules/agents-billing.md',
        target: 'windsurf',
        frontMatter: ['trigger: glob', 'globs: services/billing/**,libs/*.ts'],
        sections: [
          {
            title: 'Project billing',
            scope: 'project billing',
            notes: [
              'These apply to files matching `services/billing/**`, `libs/*.ts`.',
              'The global invariants (in .windsurf/rules/agents-global.md) apply here too.',
            ],
            entries: [P1],
          },
        ],
      },
      {
        path: '.windsurf/rules/agents-global.md',
        target: 'windsurf',
        frontMatter: ['trigger: always_on'],
        sections: [{ title: 'Global', scope: 'global', notes: ['These apply to every file of this repository.'], entries: [G1] }],
      },
    ]);
    expect(files[1]!.frontMatter).not.toBe(TARGETS.windsurf.rootFrontMatter);
  });

  it('a path glob holding backticks is one code span in the notes, fenced by a run its text does not hold', () => {
    const [file] = planExport({
      targets: ['cursor'],
      global: undefined,
      projects: [project('odd', ['x`y/**', '`lead/**', 'a``b/**'])],
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
    });
    expect(file!.sections[0]!.notes[0]).toBe('These apply to files matching ``x`y/**``, `` `lead/** ``, `a``b/**`.');
  });

  it('nested files: one per folder glob, none for other globs; two projects in one folder share the file', () => {
    const files = planExport({
      targets: ['agents-md'],
      global: [G1],
      projects: [
        project('billing', ['services/billing/**', 'libs/*.ts', 'shared/**/*']),
        project('audit', ['shared/**'], [entry(ID4, 'Keep logs', { kind: 'project', project: 'audit' })]),
        project('empty', []),
        project('none', undefined),
      ],
      severities: ['error', 'warning', 'info'],
      nested: true,
      storeRel: '.agents',
    });
    const note = 'The global invariants (in AGENTS.md at the top of the repository) apply here too.';
    const billing = {
      title: 'Project billing',
      scope: 'project billing',
      notes: ['These apply to files matching `services/billing/**`, `libs/*.ts`, `shared/**/*`.', note],
      entries: [P1],
    };
    const audit = {
      title: 'Project audit',
      scope: 'project audit',
      notes: ['These apply to files matching `shared/**`.', note],
      entries: [entry(ID4, 'Keep logs', { kind: 'project', project: 'audit' })],
    };
    expect(files).toEqual([
      {
        path: 'AGENTS.md',
        target: 'agents-md',
        frontMatter: undefined,
        sections: [{ title: 'Global', scope: 'global', notes: ['These apply to every file of this repository.'], entries: [G1] }],
      },
      { path: 'services/billing/AGENTS.md', target: 'agents-md', frontMatter: undefined, sections: [billing] },
      { path: 'shared/AGENTS.md', target: 'agents-md', frontMatter: undefined, sections: [billing, audit] },
    ]);
  });

  it('a project section sends the agent to the root file only when there is one: a global invariant the export keeps', () => {
    const notes = (global: EffectiveEntry[] | undefined, sharedGlobal?: EffectiveEntry[], severities: Severity[] = ['error']) =>
      planExport({
        targets: ['agents-md', 'cursor'],
        global,
        ...(sharedGlobal ? { sharedGlobal } : {}),
        projects: [project('billing', ['services/billing/**'])],
        severities,
        nested: true,
        storeRel: '.agents',
      })
        .filter((f) => f.sections[0]!.scope === 'project billing')
        .map((f) => f.sections[0]!.notes.length);
    // A note of where the files are, and one of the root file: none of it without a global invariant (whole or --project).
    expect(notes([G1])).toEqual([2, 2]);
    expect(notes(undefined, [G1])).toEqual([2, 2]);
    expect(notes([])).toEqual([1, 1]);
    expect(notes(undefined, [])).toEqual([1, 1]);
    // GW is a warning: left out by export.severities, it makes no root file either.
    expect(notes([GW])).toEqual([1, 1]);
  });

  it('a project with an empty list of paths gets no file of its own', () => {
    expect(
      planExport({
        targets: ['cursor'],
        global: undefined,
        projects: [project('billing', [])],
        severities: ['error'],
        nested: true,
        storeRel: '.agents',
      }),
    ).toEqual([]);
  });

  it('targets without a project file (none here) and no global set give nothing', () => {
    expect(
      planExport({
        targets: ['claude-md'],
        global: undefined,
        projects: [project('billing', ['services/billing/**'])],
        severities: ['error'],
        nested: false,
        storeRel: '.agents',
      }),
    ).toEqual([]);
  });
});

describe('unexpressedGlobs', () => {
  it('lists the globs that are no single folder, per project', () => {
    expect(
      unexpressedGlobs([project('a', ['x/**', 'y/*.ts', 'z/**/*']), project('b', undefined), project('c', ['**/*.md', 'w/**'])]),
    ).toEqual([
      { project: 'a', glob: 'y/*.ts', folder: false },
      { project: 'c', glob: '**/*.md', folder: false },
    ]);
  });

  it('a wildcard folder is expressed by the folders it names, and listed when it names none', () => {
    const projects = [project('a', ['p/*/src/**', 'q/*/**'])];
    expect(unexpressedGlobs(projects, new Map([['p/*/src/**', ['p/x/src']]]))).toEqual([{ project: 'a', glob: 'q/*/**', folder: true }]);
  });
});

describe('renderSections: the whole text', () => {
  it('the head, a section per scope, severity groups in order, labels, shadows, (none), no notes', () => {
    const shadowing = entry(ID3, 'Keep it', { kind: 'global' }, 'warning', [
      { id: ID1, scope: 'inherited', path: 'p1' },
      { id: ID2, scope: 'global', path: 'p2' },
    ]);
    const md = renderSections(
      [
        { title: 'Global', scope: 'global', notes: ['One.', 'Two.'], entries: [P1, shadowing, G1] },
        { title: 'Empty', scope: 'global', notes: ['Nothing.'], entries: [] },
        { title: 'Bare', scope: 'project billing', notes: [], entries: [P1] },
      ],
      '.agents',
    );
    expect(md).toBe(
      wrap(
        [
          ...HEAD,
          '',
          '### Global',
          '',
          'One. Two.',
          '',
          '#### Must (error): never break these',
          '',
          `- Never delete production data (\`${ID1}\`)`,
          '',
          '#### Should (warning): follow these, and say so when you cannot',
          '',
          `- Keep it (\`${ID3}\`; shadows inherited \`${ID1}\`, global \`${ID2}\`)`,
          '',
          '#### Note (info): keep these in mind',
          '',
          `- Amounts are integers of cents (project billing, \`${ID2}\`)`,
          '',
          '### Empty',
          '',
          'Nothing.',
          '',
          '(none)',
          '',
          '### Bare',
          '',
          '#### Note (info): keep these in mind',
          '',
          `- Amounts are integers of cents (\`${ID2}\`)`,
          '',
        ].join('\n'),
      ),
    );
  });

  it('a set rendered under two scopes is rendered for each; a cache is reused across calls', () => {
    const set = [P1];
    const rendered = newRenderedEntries();
    const one = renderSections([{ title: 'P', scope: 'project billing', notes: [], entries: set }], 'st', rendered);
    const two = renderSections([{ title: 'G', scope: 'global', notes: [], entries: set }], 'st', rendered);
    expect(one.endsWith(`- Amounts are integers of cents (\`${ID2}\`)\n\n`)).toBe(true);
    expect(two.endsWith(`- Amounts are integers of cents (project billing, \`${ID2}\`)\n\n`)).toBe(true);
    expect(one.includes('kept as files in `st/`')).toBe(true);
    // A cached text is given back as it was, even for a set changed since (sets are never changed in a run).
    set.push(G1);
    expect(renderSections([{ title: 'P', scope: 'project billing', notes: [], entries: set }], 'st', rendered)).toBe(one);
    expect(renderSections([{ title: 'P', scope: 'project billing', notes: [], entries: set }], 'st')).not.toBe(one);
  });

  it('an invariant text becomes one list item: trimmed, line ends made \\n, continuation lines indented, markers escaped', () => {
    const odd = entry(ID1, '  first <!-- x -->\r\nsecond   \rthird\n\n-->last  ', { kind: 'global' });
    expect(renderSections([{ title: 'G', scope: 'global', notes: [], entries: [odd] }], '.agents')).toBe(
      wrap(
        [
          ...HEAD,
          '',
          '### G',
          '',
          '#### Must (error): never break these',
          '',
          `- first &lt;!-- x --&gt;\n  second\n  third\n\n  --&gt;last (\`${ID1}\`)`,
          '',
        ].join('\n'),
      ),
    );
  });
  it('a text that starts with a block tag (<div>, </table>, <p>) has its < escaped, so that the item is no raw HTML', () => {
    const render = (text: string) =>
      renderSections([{ title: 'G', scope: 'global', notes: [], entries: [entry(ID1, text, { kind: 'global' })] }], '.agents');
    expect(render('<div> wrappers only in layouts')).toContain(`- \\<div> wrappers only in layouts (\`${ID1}\`)\n`);
    expect(render('</TABLE> closes every table')).toContain(`- \\</TABLE> closes every table (\`${ID1}\`)\n`);
    expect(render('1. <p/> never empty')).toContain(`- 1. \\<p/> never empty (\`${ID1}\`)\n`);
    // An inline tag, or a name that only starts as a block tag's, is no block: written as it is.
    expect(render('<b>bold</b> sparingly')).toContain(`- <b>bold</b> sparingly (\`${ID1}\`)\n`);
    expect(render('<divider> is ours')).toContain(`- <divider> is ours (\`${ID1}\`)\n`);
  });

  it('a backtick no span of the text closes is escaped, so that it cannot pair with the one opening the id', () => {
    const render = (text: string) =>
      renderSections([{ title: 'G', scope: 'global', notes: [], entries: [entry(ID1, text, { kind: 'global' })] }], '.agents');
    expect(render('Keep `a` as code, and one ` alone')).toContain(`- Keep \`a\` as code, and one \\\` alone (\`${ID1}\`)\n`);
    // A backslash of the text before it is the text's own, as before an asterisk.
    expect(render('Write \\` for a backtick')).toContain(`- Write \\\\\\\` for a backtick (\`${ID1}\`)\n`);
  });
});

describe('the markers and front matter text', () => {
  it('hashedText, beginMarker, frontMatterText', () => {
    expect(hashedText(undefined, 'in')).toBe('\u0000in');
    expect(hashedText('---\na\n---\n', 'in')).toBe('---\na\n---\n\u0000in');
    expect(beginMarker(H)).toBe(
      `<!-- agents:begin · generated by \`agents export\` from the invariant store; edit the store, not this block · sha256:${H} -->`,
    );
    expect(beginMarker(H).startsWith(BEGIN_PREFIX)).toBe(true);
    expect(END_MARKER).toBe('<!-- agents:end -->');
    expect(frontMatterText(undefined)).toBeUndefined();
    expect(frontMatterText([])).toBe('---\n\n---\n\n');
    expect(frontMatterText(['a: 1', 'b: 2'])).toBe('---\na: 1\nb: 2\n---\n\n');
  });

  it('leadingFrontMatter: only at the very start, LF or CRLF', () => {
    expect(leadingFrontMatter('---\na: 1\n---\nrest')).toBe('---\na: 1\n---\n');
    expect(leadingFrontMatter('---\r\na: 1\r\n---\r\nrest')).toBe('---\r\na: 1\r\n---\r\n');
    expect(leadingFrontMatter('---\na: 1\nb: 2\n---\nx\n---\n')).toBe('---\na: 1\nb: 2\n---\n');
    expect(leadingFrontMatter('x\n---\na: 1\n---\n')).toBeUndefined();
    expect(leadingFrontMatter('---\na: 1\n---')).toBeUndefined();
    expect(leadingFrontMatter('---\n---\n')).toBeUndefined();
  });

  it('renderStandalone: front matter saying whose set it is, then the sections, no blank line at either end', () => {
    const sections = [{ title: 'Project web', scope: 'project web', notes: [], entries: [G1] }];
    const body = renderSections(sections, '.agents').slice(1, -1);
    expect(body.startsWith('## Invariants\n')).toBe(true);
    expect(body.endsWith('\n\n')).toBe(false);
    expect(renderStandalone(TARGETS.cursor, sections, '.agents')).toBe(
      `---\ndescription: The effective set of project web (exported by agents)\nalwaysApply: true\n---\n\n${body}`,
    );
    expect(renderStandalone(TARGETS['agents-md'], sections, '.agents')).toBe(body);
  });
});

describe('blockFencedAt', () => {
  const block = `${beginMarker(H)}\n\n- A\n\n${END_MARKER}\n`;
  it.each([
    // The owner's fence, never closed, runs over the block appended after it: readers take the block for code.
    [`# Notes\n\n\`\`\`sh\nnpm test\n\n${block}`, 3],
    [`a\r\n~~~\r\nx\r\n\r\n${block.replace(/\n/g, '\r\n')}`, 2],
    [`# Notes\n\n\`\`\`sh\nnpm test\n\`\`\`\n\n${block}`, undefined],
    [`${block}\n\`\`\`sh\nnpm test\n`, undefined],
    [`\`\`\`js x\`\`\`\n\n${block}`, undefined],
    ['```\nno block\n', undefined],
    [block, undefined],
  ])('%j → %s', (text, line) => {
    expect(blockFencedAt(text)).toBe(line);
  });
});

describe('scanBlock', () => {
  const begin = beginMarker(H);
  it.each([
    ['', { kind: 'none' }],
    ['text\n', { kind: 'none' }],
    [`x ${begin}\nx ${END_MARKER}\n`, { kind: 'none' }],
    [`${begin}\n${begin}\n${END_MARKER}\n`, { kind: 'damaged', why: 'it holds 2 "agents:begin" markers (lines 1 and 2)', line: 1 }],
    [
      `${begin}\n${END_MARKER}\n${END_MARKER}\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'it holds 3 "agents:end" markers (lines 2, 3 and 4)', line: 2 },
    ],
    [`${END_MARKER}\n`, { kind: 'damaged', why: 'it holds an "agents:end" marker (line 1) without its "agents:begin"', line: 1 }],
    [`a\n${begin}\n`, { kind: 'damaged', why: 'it holds an "agents:begin" marker (line 2) without its "agents:end"', line: 2 }],
    [
      `${END_MARKER}\n${begin}\n`,
      { kind: 'damaged', why: 'its "agents:end" marker (line 1) comes before "agents:begin" (line 2)', line: 1 },
    ],
    [
      `${BEGIN_PREFIX} sha256:${'a'.repeat(63)} -->\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'its "agents:begin" marker (line 1) has lost its sha256', line: 1 },
    ],
    [
      `${BEGIN_PREFIX} sha256:${'A'.repeat(64)} -->\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'its "agents:begin" marker (line 1) has lost its sha256', line: 1 },
    ],
    [
      `${BEGIN_PREFIX} xsha256:${H} -->\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'its "agents:begin" marker (line 1) has lost its sha256', line: 1 },
    ],
    // Words written after a whole marker: its sha256 is there, the line is not the marker's alone.
    [
      `${BEGIN_PREFIX} sha256:${H} --> x\n${END_MARKER}\n`,
      {
        kind: 'damaged',
        why: 'its "agents:begin" marker (line 1) has text after its "-->" (move it to a line of its own above the marker)',
        line: 1,
      },
    ],
    [
      `${BEGIN_PREFIX}sha256:${H} -->\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'its "agents:begin" marker (line 1) has lost its sha256', line: 1 },
    ],
    // Only a carriage return that ends the begin line is dropped.
    [
      `${BEGIN_PREFIX} a\rb sha256:${H} -->\n${END_MARKER}\n`,
      { kind: 'damaged', why: 'its "agents:begin" marker (line 1) has lost its sha256', line: 1 },
    ],
    // An end marker counts only at the start of a line.
    [`${begin} ${END_MARKER}`, { kind: 'damaged', why: 'it holds an "agents:begin" marker (line 1) without its "agents:end"', line: 1 }],
    [`${begin}`, { kind: 'damaged', why: 'it holds an "agents:begin" marker (line 1) without its "agents:end"', line: 1 }],
  ])('%j', (text, expected) => {
    expect(scanBlock(text)).toEqual(expected);
  });

  it("markers inside the owner's closed code fences are an example, not the block; an unclosed fence hides none", () => {
    const example = `\`\`\`markdown\n${begin}\n${END_MARKER}\n\`\`\`\n`;
    expect(scanBlock(`# Notes\n${example}`)).toEqual({ kind: 'none' });
    expect(scanBlock(`~~~~\n${begin}\n~~~\n${END_MARKER}\n~~~~\n`)).toEqual({ kind: 'none' });
    const text = `${example}\n${begin}\ninside\n${END_MARKER}\n`;
    expect(scanBlock(text)).toMatchObject({ kind: 'block', start: text.lastIndexOf(begin), inner: 'inside\n' });
    // Inside the block a fence-like line opens nothing: the end marker after it still closes the block.
    expect(scanBlock(`${begin}\n\`\`\`\n${END_MARKER}\n`)).toMatchObject({ kind: 'block', inner: '```\n' });
    // "```x```" is inline code, and a fence never closed counts its markers after all.
    expect(scanBlock(`\`\`\`x\`\`\`\n${begin}\n${END_MARKER}\n`)).toMatchObject({ kind: 'block' });
    expect(scanBlock(`\`\`\`\n${begin}\n${END_MARKER}\n`)).toMatchObject({ kind: 'block', start: 4 });
    expect(scanBlock(`${example}\`\`\`\n${begin}\n`)).toEqual({
      kind: 'damaged',
      why: 'it holds an "agents:begin" marker (line 6) without its "agents:end"',
      line: 6,
    });
  });

  it('a fence never closed below the block is code to its end, whose markers are an example: the block is found, no fence over it', () => {
    const text = `${begin}\ninside\n${END_MARKER}\n\nSee:\n\n\`\`\`markdown\n${begin}\n${END_MARKER}\n`;
    expect(scanBlock(text)).toMatchObject({ kind: 'block', start: 0, inner: 'inside\n' });
    expect(blockFencedAt(text)).toBeUndefined();
  });

  it('a damaged block is placed at its markers, after a CRLF text, and a hundred markers are not all listed', () => {
    const text = `# Notes\r\n\r\n${begin}\r\nx\r\n${begin}\r\n${END_MARKER}\r\n`;
    expect(scanBlock(text)).toEqual({ kind: 'damaged', why: 'it holds 2 "agents:begin" markers (lines 3 and 5)', line: 3 });
    const many = `a\n${`${begin}\n`.repeat(100)}${END_MARKER}\n`;
    expect(scanBlock(many)).toEqual({ kind: 'damaged', why: 'it holds 100 "agents:begin" markers (lines 2, 3, 4, …)', line: 2 });
  });

  it('a block: offsets, hash, inside and front matter', () => {
    const text = `---\na: 1\n---\nbefore\n${begin}\ninside\n${END_MARKER}\nafter\n`;
    const start = text.indexOf(begin);
    expect(scanBlock(text)).toEqual({
      kind: 'block',
      start,
      end: text.indexOf('after'),
      hash: H,
      inner: 'inside\n',
      frontMatter: '---\na: 1\n---\n',
    });
  });

  it('a block with CRLF line ends, and one that ends the file without a line end', () => {
    const crlf = `${begin}\r\nin\r\n${END_MARKER}\r\nafter`;
    expect(scanBlock(crlf)).toEqual({
      kind: 'block',
      start: 0,
      end: crlf.indexOf('after'),
      hash: H,
      inner: 'in\r\n',
      frontMatter: undefined,
    });
    const bare = `x\n${begin}\n${END_MARKER}`;
    expect(scanBlock(bare)).toEqual({ kind: 'block', start: 2, end: bare.length, hash: H, inner: '', frontMatter: undefined });
    const cr = `${begin}\n${END_MARKER}\rx`;
    expect(scanBlock(cr)).toMatchObject({ kind: 'block', end: cr.length - 2 });
  });

  it('markers after up to three spaces are the block, as Markdown reads them; after four they are code, not markers', () => {
    const text = `a\n   ${begin}\ninside\n  ${END_MARKER}\nb\n`;
    expect(scanBlock(text)).toEqual({
      kind: 'block',
      start: 2,
      end: text.indexOf('b\n'),
      hash: H,
      inner: 'inside\n',
      frontMatter: undefined,
    });
    expect(scanBlock(`    ${begin}\n    ${END_MARKER}\n`)).toEqual({ kind: 'none' });
    expect(scanBlock(`\t${begin}\n${END_MARKER}\n`)).toMatchObject({ kind: 'damaged', line: 2 });
    // An indented marker in the owner's code fence is an example all the same.
    expect(scanBlock(`\`\`\`\n  ${begin}\n  ${END_MARKER}\n\`\`\`\n`)).toEqual({ kind: 'none' });
  });

  it('blanks after the begin marker (as after the end marker) leave it whole: up to date, then written back without them', () => {
    const text = `${begin} \t\ninside\n${END_MARKER}  \n`;
    expect(scanBlock(text)).toMatchObject({ kind: 'block', hash: H, inner: 'inside\n' });
    const inner = '## Invariants\n\n- A\n';
    const made = `${beginMarker(hash(hashedText(undefined, inner)))}  \n${inner}${END_MARKER}\n`;
    expect(mergeBlock(made, undefined, inner, hash, false)).toEqual({ kind: 'write', text: made, action: 'unchanged' });
    const next = '## Invariants\n\n- B\n';
    expect(mergeBlock(made, undefined, next, hash, false)).toEqual({
      kind: 'write',
      text: `${beginMarker(hash(hashedText(undefined, next)))}\n${next}${END_MARKER}\n`,
      action: 'update',
    });
  });

  it('a begin marker with other words before the hash', () => {
    expect(scanBlock(`${BEGIN_PREFIX} made by hand sha256:${H} -->\n${END_MARKER}\n`)).toMatchObject({ kind: 'block', hash: H });
  });
});

describe('mergeBlock: exact texts', () => {
  const inner = '## Invariants\n\n- A\n';
  const blockOf = (front: string | undefined, inside: string) =>
    `${beginMarker(hash(hashedText(front, inside)))}\n${inside}${END_MARKER}\n`;
  const block = blockOf(undefined, inner);

  it('creates a file, with its front matter first', () => {
    expect(mergeBlock(undefined, undefined, inner, hash, false)).toEqual({ kind: 'write', text: block, action: 'create' });
    const front = '---\na: 1\n---\n';
    expect(mergeBlock(undefined, front, inner, hash, false)).toEqual({
      kind: 'write',
      text: `${front}${blockOf(front, inner)}`,
      action: 'create',
    });
  });

  it("the owner's text after the end marker on its line stays on that line, byte for byte, once the block is updated", () => {
    const file = `# Notes\n\n${block.slice(0, -1)} <!-- mine --> keep\n`;
    expect(mergeBlock(file, undefined, inner, hash, false)).toEqual({ kind: 'write', text: file, action: 'unchanged' });
    const newer = '## Invariants\n\n- B\n';
    const updated = `# Notes\n\n${blockOf(undefined, newer).slice(0, -1)} <!-- mine --> keep\n`;
    expect(mergeBlock(file, undefined, newer, hash, false)).toEqual({ kind: 'write', text: updated, action: 'update' });
    expect(mergeBlock(updated, undefined, newer, hash, false)).toEqual({ kind: 'write', text: updated, action: 'unchanged' });
    // CRLF too; and an end marker that ends the file gets its line break, as every block is written.
    const crlf = file.replace(/\n/g, '\r\n');
    expect(mergeBlock(crlf, undefined, newer, hash, false)).toMatchObject({ text: updated.replace(/\n/g, '\r\n') });
    expect(mergeBlock(block.slice(0, -1), undefined, newer, hash, false)).toMatchObject({ text: blockOf(undefined, newer) });
  });

  it('a byte order mark before the front matter stays in front: up to date, updated behind it, and deleted with the block', () => {
    const front = '---\na: 1\n---\n\n';
    const file = `\ufeff${front}${blockOf(front, inner)}`;
    expect(mergeBlock(file, front, inner, hash, false)).toEqual({ kind: 'write', text: file, action: 'unchanged' });
    const newer = '## Invariants\n\n- B\n';
    expect(mergeBlock(file, front, newer, hash, false)).toEqual({
      kind: 'write',
      text: `\ufeff${front}${blockOf(front, newer)}`,
      action: 'update',
    });
    expect(removeBlock(file, hash, true)).toEqual({ kind: 'delete' });
    expect(removeBlock(`${file}mine\n`, hash, true)).toEqual({ kind: 'write', text: `\ufeff${front}mine\n`, action: 'update' });
  });

  it('text above the front matter is refused as such (the client reads front matter only first); --force puts it below, once', () => {
    const front = '---\na: 1\n---\n\n';
    const file = `mine\n\n${front}${blockOf(front, inner)}`;
    expect(mergeBlock(file, front, inner, hash, false)).toEqual({
      kind: 'refuse',
      reason: 'text-above-front-matter',
      why: expect.stringContaining('(line 3)'),
      line: 1,
    });
    expect(mergeBlock(file, front, inner, hash, true)).toEqual({
      kind: 'write',
      text: `${front}mine\n\n${blockOf(front, inner)}`,
      action: 'update',
    });
    // A front matter the block's hash does not name (edited, or the owner's thematic breaks) is a hand edit.
    const edited = `mine\n\n---\na: 2\n---\n\n${blockOf(front, inner)}`;
    expect(mergeBlock(edited, front, inner, hash, false)).toMatchObject({ kind: 'refuse', reason: 'hand-edited' });
    expect(removeBlock(edited, hash, true)).toMatchObject({ kind: 'refuse', reason: 'hand-edited' });
    // A file no project names any more loses the block and the front matter above it; the owner's text stays.
    expect(removeBlock(`${file}after\n`, hash, true)).toEqual({ kind: 'write', text: 'mine\n\nafter\n', action: 'update' });
  });

  it("a merge conflict shown in a code fence of the owner's text is an example; one git left, or one across a fence's edge, is refused", () => {
    const example = '# Conflicts\n\n```\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n```\n';
    expect(mergeBlock(example, undefined, inner, hash, false)).toEqual({ kind: 'write', text: `${example}\n${block}`, action: 'update' });
    const real = '<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n';
    expect(mergeBlock(`${example}${real}`, undefined, inner, hash, false)).toMatchObject({
      kind: 'refuse',
      reason: 'conflicted',
      why: expect.stringContaining('at lines 10-14'),
      line: 10,
    });
    const across = '<<<<<<< HEAD\n```\n=======\n```\n>>>>>>> feature\n';
    expect(mergeBlock(across, undefined, inner, hash, false)).toMatchObject({ kind: 'refuse', reason: 'conflicted' });
    expect(removeBlock(`${example}${block}`, hash, false)).toEqual({ kind: 'write', text: example, action: 'update' });
  });

  it('a merge conflict in the agents block alone (an export on each side of a rebase) is written anew; one reaching the text around it, or a side edited by hand, is refused', () => {
    // Each branch exported its own set: git conflicts on the marker's hash and on the list, between the owner's lines.
    const ours = blockOf(undefined, '## Invariants\n\n- A\n- B\n');
    const theirs = blockOf(undefined, '## Invariants\n\n- A\n- C\n');
    const split = (a: string, b: string, base = '') => {
      const [x, y] = [a.split('\n'), b.split('\n')];
      return `<<<<<<< HEAD\n${x[0]}\n${base}=======\n${y[0]}\n>>>>>>> 1a2b3c4 (add C)\n${x.slice(1, 4).join('\n')}\n<<<<<<< HEAD\n${x[4]}\n${base}=======\n${y[4]}\n>>>>>>> 1a2b3c4 (add C)\n${x.slice(5).join('\n')}`;
    };
    const conflicted = `# Notes\n\n${split(ours, theirs)}\nafter\n`;
    expect(mergeBlock(conflicted, undefined, inner, hash, false)).toEqual({
      kind: 'write',
      text: `# Notes\n\n${block}\nafter\n`,
      action: 'update',
    });
    expect(removeBlock(conflicted, hash, false)).toEqual({ kind: 'write', text: '# Notes\n\n\nafter\n', action: 'update' });
    // Git's diff3 style: the base section between ||||||| and ======= belongs to neither side.
    const diff3 = `# Notes\n\n${split(ours, theirs, '||||||| 9f8e7d6\nold\n')}\nafter\n`;
    expect(mergeBlock(diff3, undefined, inner, hash, false)).toEqual({
      kind: 'write',
      text: `# Notes\n\n${block}\nafter\n`,
      action: 'update',
    });
    // The store already holds what one side wrote: the file still changes, its markers going.
    expect(mergeBlock(conflicted, undefined, '## Invariants\n\n- A\n- B\n', hash, false)).toEqual({
      kind: 'write',
      text: `# Notes\n\n${ours}\nafter\n`,
      action: 'update',
    });
    // The owner's own text differs on the two sides: theirs to resolve.
    const around = `<<<<<<< HEAD\n# Our notes\n${ours}=======\n# Their notes\n${theirs}>>>>>>> feature\n`;
    expect(mergeBlock(around, undefined, inner, hash, true)).toMatchObject({ kind: 'refuse', reason: 'conflicted', line: 1 });
    // A side whose block was edited by hand (its hash no longer its text) would lose that edit: refused, --force too.
    const edited = `# Notes\n\n${split(ours, theirs.replace('- C', '- C, edited'))}\nafter\n`;
    for (const force of [false, true]) {
      expect(mergeBlock(edited, undefined, inner, hash, force)).toMatchObject({ kind: 'refuse', reason: 'conflicted', line: 3 });
      expect(removeBlock(edited, hash, false, force)).toMatchObject({ kind: 'refuse', reason: 'conflicted', line: 3 });
    }
  });

  it.each([
    ['', ''],
    ['mine', 'mine\n\n'],
    ['mine\n', 'mine\n\n'],
    ['mine\n\n', 'mine\n\n'],
  ])('appends to %j with one blank line between', (current, before) => {
    expect(mergeBlock(current, undefined, inner, hash, false)).toEqual({ kind: 'write', text: `${before}${block}`, action: 'update' });
  });

  // The blank line an append put before the block goes with it: the owner's file ends as it did, CRLF or LF.
  it.each([
    ['mine\n', 'mine\n'],
    ['# Notes\r\nline\r\n', '# Notes\r\nline\r\n'],
    ['\ufeffmine\n', '\ufeffmine\n'],
    ['mine', 'mine\n'],
  ])('a block appended to %j and then removed leaves %j', (current, left) => {
    const merged = mergeBlock(current, undefined, inner, hash, false) as { text: string };
    expect(removeBlock(merged.text, hash, false)).toEqual({ kind: 'write', text: left, action: 'update' });
  });

  // A file written with CRLF line ends gets its block with CRLF too (and stays up to date so); a file of mostly LF, LF.
  it.each([
    ['# Notes\r\n', '# Notes\r\n\r\n', true],
    ['# Notes\r\n\r\n', '# Notes\r\n\r\n', true],
    ['a\r\nb\r\nc\n', 'a\r\nb\r\nc\n\r\n', true],
    ['a\r\nb\nc\n', 'a\r\nb\nc\n\n', false],
  ])('appends to %j with the line ends it has most of', (current, before, crlf) => {
    const merged = mergeBlock(current, undefined, inner, hash, false);
    const written = crlf ? block.replace(/\n/g, '\r\n') : block;
    expect(merged).toEqual({ kind: 'write', text: `${before}${written}`, action: 'update' });
    expect(mergeBlock(`${before}${written}`, undefined, inner, hash, false)).toMatchObject({ action: 'unchanged' });
  });

  it('a file of its own without a block is foreign, unless forced: then the text is replaced', () => {
    const front = '---\na: 1\n---\n';
    expect(mergeBlock('mine\n', front, inner, hash, false)).toEqual({
      kind: 'refuse',
      reason: 'foreign',
      why: 'it has no agents block: it was not written by `agents export`',
    });
    expect(mergeBlock('mine\n', front, inner, hash, true)).toEqual({
      kind: 'write',
      text: `${front}${blockOf(front, inner)}`,
      action: 'update',
    });
  });

  it("a file whose block went with an empty set, the owner's text kept under its front matter, gets the block back there", () => {
    const front = '---\na: 1\n---\n\n';
    for (const [eol, bom] of [
      ['\n', ''],
      ['\r\n', '\ufeff'],
    ]) {
      const crlf = (text: string) => text.replace(/\n/g, eol!);
      const file = `${bom}${crlf(`${front}${blockOf(front, inner)}mine\n`)}`;
      const left = removeBlock(file, hash, true);
      expect(left).toEqual({ kind: 'write', text: `${bom}${crlf(`${front}mine\n`)}`, action: 'update' });
      const back = mergeBlock((left as { text: string }).text, front, inner, hash, false);
      expect(back).toEqual({ kind: 'write', text: file, action: 'update' });
    }
    // Front matter of other values is not the export's: still refused.
    expect(mergeBlock('---\na: 2\n---\n\nmine\n', front, inner, hash, false)).toMatchObject({ kind: 'refuse', reason: 'foreign' });
  });

  it("a block a formatter re-wrapped is up to date while its marker names the store's text; else its hash tells an edit", () => {
    const front = '---\ndescription: Invariants of project billing (exported by agents)\n---\n\n';
    const long = '## Invariants\n\nConstraints on what you may do.\nEach one ends with its id.\n\n- A rule long enough to wrap (`X`)\n';
    const file = `${front}${blockOf(front, long)}mine\n`;
    const wrapped = file
      .replace('description: Invariants', 'description:\n  Invariants')
      .replace('do.\nEach', 'do. Each')
      .replace('enough to wrap', 'enough\n  to wrap');
    expect(mergeBlock(wrapped, front, long, hash, false)).toEqual({ kind: 'write', text: wrapped, action: 'unchanged' });
    // Another word is an edit, and so is the same block once the store's text moved on.
    expect(mergeBlock(wrapped.replace('enough', 'plenty'), front, long, hash, false)).toMatchObject({
      kind: 'refuse',
      reason: 'hand-edited',
    });
    expect(mergeBlock(wrapped, front, long.replace('(`X`)', '(`Y`)'), hash, false)).toMatchObject({
      kind: 'refuse',
      reason: 'hand-edited',
    });
  });

  it.each(['', '\n', ' \r\n\t'])(
    "an empty file of the export's name (%j, made by hand or by an editor) gets the export's text",
    (empty) => {
      const front = '---\na: 1\n---\n\n';
      expect(mergeBlock(empty, front, inner, hash, false)).toEqual({
        kind: 'write',
        text: `${front}${blockOf(front, inner)}`,
        action: 'update',
      });
    },
  );

  it('an indented block is the block: up to date as it is, replaced at the margin once the store changes, never a second one', () => {
    const indented = `mine\n\n${block.replace(/^</gm, '  <')}after\n`;
    expect(mergeBlock(indented, undefined, inner, hash, false)).toEqual({ kind: 'write', text: indented, action: 'unchanged' });
    const next = '## Invariants\n\n- B\n';
    expect(mergeBlock(indented, undefined, next, hash, false)).toEqual({
      kind: 'write',
      text: `mine\n\n${blockOf(undefined, next)}after\n`,
      action: 'update',
    });
    expect(removeBlock(indented, hash, false)).toEqual({ kind: 'write', text: 'mine\n\nafter\n', action: 'update' });
  });

  it('a damaged block is refused with the reason, forced or not', () => {
    expect(mergeBlock(END_MARKER, undefined, inner, hash, true)).toEqual({
      kind: 'refuse',
      reason: 'damaged',
      why: 'it holds an "agents:end" marker (line 1) without its "agents:begin"',
      line: 1,
    });
  });

  it('an up-to-date block is unchanged, with or without front matter', () => {
    const text = `a\n\n${block}b\n`;
    expect(mergeBlock(text, undefined, inner, hash, false)).toEqual({ kind: 'write', text, action: 'unchanged' });
    const front = '---\na: 1\n---\n';
    const made = `${front}${blockOf(front, inner)}`;
    expect(mergeBlock(made, front, inner, hash, false)).toEqual({ kind: 'write', text: made, action: 'unchanged' });
  });

  it('a block edited by hand is refused with the reason; forced, it is replaced', () => {
    const edited = block.replace('- A', '- B');
    expect(mergeBlock(`x\n${edited}`, undefined, inner, hash, false)).toEqual({
      kind: 'refuse',
      reason: 'hand-edited',
      why: 'its agents block was edited by hand (the text no longer matches the sha256 in its begin marker)',
      line: 5,
    });
    expect(mergeBlock(`x\n${edited}`, undefined, inner, hash, true)).toEqual({ kind: 'write', text: `x\n${block}`, action: 'update' });
  });

  it('a block with a stale but right hash is replaced without force', () => {
    const old = blockOf(undefined, '- old\n');
    expect(mergeBlock(`x\n${old}y`, undefined, inner, hash, false)).toEqual({ kind: 'write', text: `x\n${block}y`, action: 'update' });
  });

  it('a right block under a front matter that is not the one wanted: the front matter is rewritten', () => {
    const front = '---\na: 1\n---\n';
    const other = '---\na: 2\n---\n';
    const made = `${front}${blockOf(front, inner)}tail\n`;
    // The block covers its own front matter: a new front matter is a change, not a hand edit.
    expect(mergeBlock(made, other, inner, hash, false)).toEqual({
      kind: 'write',
      text: `${other}${blockOf(other, inner)}tail\n`,
      action: 'update',
    });
    // A file without front matter (its hash covers none) gets it before the text above the block.
    const noFront = `above\n${block}`;
    expect(mergeBlock(noFront, front, inner, hash, false)).toEqual({
      kind: 'write',
      text: `${front}above\n${blockOf(front, inner)}`,
      action: 'update',
    });
    // A target without front matter leaves a file's own front matter alone.
    const own = `${other}${block}`;
    expect(mergeBlock(own, undefined, inner, hash, false)).toEqual({ kind: 'write', text: own, action: 'unchanged' });
  });

  it('the front matter must also stand at the start of the file for the block to be up to date', () => {
    const front = '---\na: 1\n---\n';
    const b = blockOf(front, inner);
    // The block is right and the hash covers the front matter, but the file starts with another one.
    const text = `---\nz: 9\n---\n${b}`;
    expect(mergeBlock(text, front, inner, hash, true)).toEqual({ kind: 'write', text: `${front}${b}`, action: 'update' });
  });

  it('forced over an identical text gives unchanged', () => {
    // A block whose hash was computed without the front matter it now sits under.
    const front = '---\na: 1\n---\n';
    const text = `${front}${blockOf(front, inner)}`;
    expect(mergeBlock(text, front, inner, hash, true)).toEqual({ kind: 'write', text, action: 'unchanged' });
  });
});

describe('removeBlock: exact results', () => {
  const inner = '- A\n';
  const blockOf = (front: string | undefined) => `${beginMarker(hash(hashedText(front, inner)))}\n${inner}${END_MARKER}\n`;

  it('refuses a damaged file, a file without a block, and a hand edit', () => {
    expect(removeBlock(`${END_MARKER}\n`, hash, false)).toEqual({
      kind: 'refuse',
      reason: 'damaged',
      why: 'it holds an "agents:end" marker (line 1) without its "agents:begin"',
      line: 1,
    });
    expect(removeBlock('mine\n', hash, false)).toEqual({ kind: 'refuse', reason: 'foreign', why: 'it has no agents block' });
    expect(removeBlock(blockOf(undefined).replace('- A', '- B'), hash, false)).toEqual({
      kind: 'refuse',
      reason: 'hand-edited',
      why: 'its agents block was edited by hand',
    });
    // Forced, the edited block goes as any other; a damaged one never does.
    expect(removeBlock(`a\n${blockOf(undefined).replace('- A', '- B')}`, hash, false, true)).toEqual({
      kind: 'write',
      text: 'a\n',
      action: 'update',
    });
    expect(removeBlock(`${END_MARKER}\n`, hash, false, true)).toMatchObject({ kind: 'refuse', reason: 'damaged' });
  });

  it('without front matter: deletes a file of white space and the block, keeps other text', () => {
    expect(removeBlock(`\n \n${blockOf(undefined)}\t\n`, hash, false)).toEqual({ kind: 'delete' });
    expect(removeBlock(`a\n${blockOf(undefined)}b\n`, hash, false)).toEqual({ kind: 'write', text: 'a\nb\n', action: 'update' });
    // The hash of a file without front matter covers none, even when the file starts with one.
    const front = '---\nx: 1\n---\n';
    expect(removeBlock(`${front}${blockOf(undefined)}`, hash, false)).toEqual({ kind: 'write', text: front, action: 'update' });
    expect(removeBlock(`${front}${blockOf(undefined)}`, hash, true)).toEqual({
      kind: 'refuse',
      reason: 'hand-edited',
      why: 'its agents block was edited by hand',
    });
  });

  it('with front matter: the front matter goes with the block', () => {
    const front = '---\nx: 1\n---\n';
    expect(removeBlock(`${front}${blockOf(front)}`, hash, true)).toEqual({ kind: 'delete' });
    expect(removeBlock(`${front}${blockOf(front)}\n`, hash, true)).toEqual({ kind: 'delete' });
    expect(removeBlock(`${front}${blockOf(front)}mine\n`, hash, true)).toEqual({ kind: 'write', text: `${front}mine\n`, action: 'update' });
    // A file that lost its front matter: the hash then covers none.
    expect(removeBlock(blockOf(undefined), hash, true)).toEqual({ kind: 'delete' });
  });
});

describe('project file names and begin lines are matched whole', () => {
  it.each([
    ['copilot', 'xagents-billing.instructions.md'],
    ['copilot', 'agents-billing.instructions.md.bak'],
    ['cursor', 'xagents-billing.mdc'],
    ['cursor', 'agents-billing.mdc.bak'],
    ['windsurf', 'xagents-billing.md'],
    ['cline', 'agents-billing.md.bak'],
  ] as const)('%s: %s is no file of the tool', (target, name) => {
    expect(TARGETS[target].projectFilePattern!.test(name)).toBe(false);
  });

  it('a begin line must start with the marker and a space: a marker further along it does not count', () => {
    expect(scanBlock(`${BEGIN_PREFIX}x ${beginMarker(H)}\n${END_MARKER}\n`)).toEqual({
      kind: 'damaged',
      why: 'its "agents:begin" marker (line 1) has lost its sha256',
      line: 1,
    });
  });
});
