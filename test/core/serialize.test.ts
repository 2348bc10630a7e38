import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AgentsError } from '../../src/core/errors.ts';
import type { Invariant } from '../../src/core/model.ts';
import {
  foldLines,
  formatActionFile,
  formatConfigFile,
  formatDecisionFile,
  formatEnforcementFile,
  formatExtendsLockFile,
  formatInvariantFile,
  formatPlanFile,
  formatProjectFile,
  formatRecordFile,
  formatViolationFile,
  formatWaiverFile,
  invariantFields,
  yamlDocument,
} from '../../src/core/serialize.ts';
import { docsRef } from '../../src/core/docs-link.ts';

// The exact text the writers give (docs/store-format.md, "Line width and quoting"); the
// round trip through yaml and the fast reader is tested in canonical-yaml.test.ts.

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const INV = '01M8KJT9G0XNWEM589ZS7FV0VT';
const DEC = '01M8KK1KW0KPRSWWKENT2QZ1QM';
const RUN = '01M8KK3EF09G9ET4TAJAHQWPMN';
const AT = '2026-11-29T12:00:00Z';

/** The lines after the modeline of a document holding `data`. */
function body(data: Record<string, unknown>): string {
  const text = yamlDocument('global/x.yaml', 'invariant.schema.json', data);
  expect(text.startsWith('# yaml-language-server: $schema=../schemas/invariant.schema.json\n')).toBe(true);
  return text.slice(text.indexOf('\n') + 1);
}
const textLine = (value: string) => body({ text: value });

describe('a one-line value', () => {
  it('stays on its line up to 80 columns, then is folded', () => {
    expect(textLine('x'.repeat(74))).toBe(`text: ${'x'.repeat(74)}\n`);
    expect(textLine('x'.repeat(75))).toBe(`text: >-\n  ${'x'.repeat(75)}\n`);
    expect(textLine(`${'word '.repeat(24)}end`)).toBe(
      'text: >-\n' +
        '  word word word word word word word word word word word word word word word\n' +
        '  word word word word word word word word word end\n',
    );
  });

  it('takes the quote prettier prefers', () => {
    // yaml writes these plain or single-quoted itself.
    expect(textLine('say "hi"')).toBe('text: say "hi"\n');
    expect(textLine(`it's "quoted"`)).toBe(`text: it's "quoted"\n`);
    expect(textLine('"quoted" start')).toBe(`text: '"quoted" start'\n`);
    // Both quotes where a plain scalar cannot start: yaml's double quotes become single ones.
    expect(textLine(`"it's" here`)).toBe(`text: '"it''s" here'\n`);
    // Another escape (the backslash) needs the double quotes: they stay.
    expect(textLine(`"it's" \\ here`)).toBe(`text: "\\"it's\\" \\\\ here"\n`);
  });

  it('starting like a document marker (--- or ...): quoted, so it parses in a list or under a nested key too', () => {
    // yaml writes such a value alone as a block indented for a top-level key only.
    const data = { text: '---', tags: ['---', '... x'], guard: { write: ['--- "a"'] }, source: { kind: 'action', ref: '...' } };
    const text = body(data);
    expect(text).toBe(
      'text: "---"\ntags:\n  - "---"\n  - "... x"\nguard:\n  write:\n    - \'--- "a"\'\nsource:\n  kind: action\n  ref: "..."\n',
    );
    expect(parse(text)).toEqual(data);
  });

  it('with a run of spaces in a line too long: double-quoted and broken, not folded', () => {
    // 80 characters: folded, its one line would be 82 columns wide.
    expect(textLine(`${'a'.repeat(39)}  ${'b'.repeat(39)}`)).toBe(`text: "${'a'.repeat(39)}  ${'b'.repeat(30)}\\\n  ${'b'.repeat(9)}"\n`);
  });

  it('with a leading space and too long: double-quoted, broken with an escaped line break', () => {
    expect(textLine(` ${'word '.repeat(24)}end`)).toBe(
      'text: " word word word word word word word word word word word word word word \\\n' +
        '  word word word word word word word word word word end"\n',
    );
  });
});

describe('a value of several lines', () => {
  it('is a literal block under its key, blank lines left empty', () => {
    expect(textLine('first line\n\nthird line')).toBe('text: |-\n  first line\n\n  third line\n');
    expect(textLine('a\nb\n')).toBe('text: |\n  a\n  b\n');
  });

  it('is indented two past a key, or past the dash of a bare item', () => {
    expect(body({ tags: ['a\nb'], records: [{ r: 'a\nb' }] })).toBe('tags:\n  - |-\n    a\n    b\nrecords:\n  - r: |-\n      a\n      b\n');
  });

  it('is a literal block while its lines fit 80 columns, else double-quoted', () => {
    expect(textLine(`${'x'.repeat(78)}\nb`)).toBe(`text: |-\n  ${'x'.repeat(78)}\n  b\n`);
    expect(textLine(`${'x'.repeat(79)}\nb`)).toBe(`text: "${'x'.repeat(71)}\\\n  ${'x'.repeat(8)}\\nb"\n`);
  });

  it('starting like a document marker: a literal block indented as any other, in a list too', () => {
    // yaml indents such a block by two more when it writes the value alone.
    const data = { rationale: '...\nb', tags: ['--- a\nb'] };
    const text = body(data);
    expect(text).toBe('rationale: |-\n  ...\n  b\ntags:\n  - |-\n    --- a\n    b\n');
    expect(parse(text)).toEqual(data);
  });

  it('with a trailing space on a line, or leading spaces (an indentation indicator): double-quoted', () => {
    expect(textLine('a \nb')).toBe('text: "a \\nb"\n');
    expect(textLine('  a\nb')).toBe('text: "  a\\nb"\n');
    expect(textLine('a \n\tb')).toBe('text: "a \\n\\tb"\n');
  });
});

describe('a value with controls: double-quoted, escaped', () => {
  it.each([
    ['a tab', 'a\tb', '"a\\tb"'],
    ['NEL', 'x\u0085y', '"x\\u0085y"'],
    ['a C0 control', '\u0001', '"\\u0001"'],
    ['quotes and a backslash', 'say "hi"\t\\', '"say \\"hi\\"\\t\\\\"'],
    ['a surrogate pair', '😀\t', '"😀\\t"'],
    ['the first surrogate pair', '\ud800\udc00\t', '"\ud800\udc00\\t"'],
    ['the last surrogate pair', '\udbff\udfff\t', '"\udbff\udfff\\t"'],
    ['a lone low surrogate after a letter', 'a\udc00\t', '"a\\udc00\\t"'],
    ['two low surrogates', '\udc00\udc00\t', '"\\udc00\\udc00\\t"'],
    ['a high surrogate before a letter', 'x\ud83dy\t', '"x\\ud83dy\\t"'],
    ['a high surrogate before a private-use character', '\ud83d\ue000\t', '"\\ud83d\ue000\\t"'],
    ['a high surrogate at the end', 'a\ud83d', '"a\\ud83d"'],
  ])('%s', (_name, value, written) => {
    expect(textLine(value)).toBe(`text: ${written}\n`);
  });

  it('broken only when the closing quote would pass column 80', () => {
    expect(textLine(`\t${'x'.repeat(70)}`)).toBe(`text: "\\t${'x'.repeat(70)}"\n`);
    expect(textLine(`\t${'x'.repeat(71)}`)).toBe(`text: "\\t${'x'.repeat(69)}\\\n  xx"\n`);
  });

  it('after a key so long that no character fits: the first one still goes on the key line', () => {
    const key = 'k'.repeat(76);
    expect(body({ [key]: 'a\tb' })).toBe(`${key}: "a\\\n  \\tb"\n`);
  });

  it('an empty value after a key past column 78: empty double quotes', () => {
    const key = 'k'.repeat(79);
    expect(body({ [key]: '' })).toBe(`${key}: ""\n`);
  });
});

describe('foldLines', () => {
  it('breaks at single spaces between two other characters, as late as the width allows', () => {
    expect(foldLines('ab cd', 5)).toEqual(['ab cd']);
    expect(foldLines('ab cd', 4)).toEqual(['ab', 'cd']);
    expect(foldLines('a  b c', 3)).toEqual(['a  b', 'c']);
    // A space at the end is not between two characters: it stays with the last word.
    expect(foldLines('ab c ', 4)).toEqual(['ab', 'c ']);
  });
});

describe('yamlDocument', () => {
  it('refuses a key that ends with the placeholder of a value, rather than write it changed', () => {
    // yaml writes a key of over 1024 characters as an explicit key, on a line of its own.
    const key = `${'k'.repeat(1100)}zz0fold000zz`;
    expect(() => yamlDocument('global/x.yaml', 'invariant.schema.json', { [key]: 'v' })).toThrow(
      new Error('internal: 2 placeholder(s) replaced for 1 value(s) of global/x.yaml'),
    );
  });
});

describe('invariantFields', () => {
  const base: Invariant = { id: INV, text: 'Never delete production data', severity: 'error', active: true, tags: [] };

  it('holds only the fields that are set', () => {
    expect(invariantFields(base)).toStrictEqual({ id: INV, text: 'Never delete production data', severity: 'error', active: true });
    expect(invariantFields({ ...base, locked: false })).toStrictEqual({
      id: INV,
      text: 'Never delete production data',
      severity: 'error',
      active: true,
    });
  });

  it('in the documented order, whatever the order of the object', () => {
    const fields = invariantFields({
      source: { kind: 'action', ref: 'local/release', origin_id: DEC },
      created_by: 'Jane',
      created_at: AT,
      locked: true,
      overrides: DEC,
      rationale: 'Why.',
      tags: ['data'],
      active: false,
      severity: 'warning',
      text: 'Never delete production data',
      id: INV,
    });
    expect(Object.keys(fields)).toEqual([
      'id',
      'text',
      'severity',
      'active',
      'tags',
      'rationale',
      'overrides',
      'locked',
      'created_at',
      'created_by',
      'source',
    ]);
  });
});

describe('the writers', () => {
  it('formatInvariantFile: every field, locked included (an edit keeps a floor)', () => {
    const text = formatInvariantFile(`global/${INV}.yaml`, {
      id: INV,
      text: 'Never delete production data',
      severity: 'warning',
      active: false,
      tags: ['data'],
      rationale: 'Why.',
      overrides: DEC,
      locked: true,
      created_at: AT,
      created_by: 'Jane',
      source: { kind: 'action', ref: 'local/release', origin_id: DEC },
    });
    expect(text).toBe(
      [
        '# yaml-language-server: $schema=../schemas/invariant.schema.json',
        `id: ${INV}`,
        'text: Never delete production data',
        'severity: warning',
        'active: false',
        'tags:',
        '  - data',
        'rationale: Why.',
        `overrides: ${DEC}`,
        'locked: true',
        `created_at: "${AT}"`,
        'created_by: Jane',
        'source:',
        '  kind: action',
        '  ref: local/release',
        `  origin_id: ${DEC}`,
        '',
      ].join('\n'),
    );
  });

  it('formatPlanFile, keys in the documented order', () => {
    expect(
      formatPlanFile(`plans/${PLAN}/plan.yaml`, {
        created_by: 'Jane',
        goal: 'Ship it',
        project: 'web',
        action: 'local/release',
        id: PLAN,
        created_at: AT,
      }),
    ).toBe(
      '# yaml-language-server: $schema=../../schemas/plan.schema.json\n' +
        `id: ${PLAN}\naction: local/release\nproject: web\ngoal: Ship it\ncreated_at: "${AT}"\ncreated_by: Jane\n`,
    );
  });

  it('formatActionFile and formatProjectFile', () => {
    expect(formatActionFile('actions/local/release/action.yaml', { description: 'Release a version.\nTwo lines.' })).toBe(
      '# yaml-language-server: $schema=../../../schemas/action.schema.json\ndescription: |-\n  Release a version.\n  Two lines.\n',
    );
    expect(formatActionFile('actions/local/release/action.yaml', {})).toBe(
      '# yaml-language-server: $schema=../../../schemas/action.schema.json\n{}\n',
    );
    expect(formatProjectFile('projects/web/project.yaml', { paths: ['web/**', 'shared/ui/**'], description: 'The web app' })).toBe(
      '# yaml-language-server: $schema=../../schemas/project.schema.json\ndescription: The web app\npaths:\n  - web/**\n  - shared/ui/**\n',
    );
  });

  it('formatDecisionFile and formatRecordFile', () => {
    const rel = `plans/${PLAN}/decisions/${DEC}.yaml`;
    expect(
      formatDecisionFile(rel, {
        actor: 'command',
        enforcement_id: RUN,
        summary: 'Enforced 1 invariant',
        created_by: 'Jane',
        created_at: AT,
        parent_id: null,
        type: 'invariant_enforced',
        id: DEC,
      }),
    ).toBe(
      '# yaml-language-server: $schema=../../../schemas/decision.schema.json\n' +
        `id: ${DEC}\ntype: invariant_enforced\nparent_id: null\ncreated_at: "${AT}"\ncreated_by: Jane\n` +
        `summary: Enforced 1 invariant\nenforcement_id: ${RUN}\nactor: command\n`,
    );
    expect(
      formatRecordFile(rel, 'decision.schema.json', { id: DEC, type: 'invariant_enforced', parent_id: null, created_at: AT, summary: 'x' }),
    ).toBe(
      '# yaml-language-server: $schema=../../../schemas/decision.schema.json\n' +
        `id: ${DEC}\ntype: invariant_enforced\nparent_id: null\ncreated_at: "${AT}"\nsummary: x\n`,
    );
  });

  it('formatEnforcementFile', () => {
    expect(
      formatEnforcementFile(`plans/${PLAN}/enforcements/${RUN}.yaml`, {
        records: [
          { digest: `sha256:${'cd'.repeat(32)}`, decision_id: DEC, actor_response: 'done', enforced: true, invariant_id: INV },
          { decision_id: DEC, actor_response: 'an older record: no digest', enforced: false, invariant_id: INV },
        ],
        set_digest: `sha256:${'ab'.repeat(32)}`,
        error: 'actor exited 1',
        actor: 'command',
        created_by: 'Jane',
        created_at: AT,
        decision_id: DEC,
        id: RUN,
      }),
    ).toBe(
      [
        '# yaml-language-server: $schema=../../../schemas/enforcement.schema.json',
        `id: ${RUN}`,
        `decision_id: ${DEC}`,
        `created_at: "${AT}"`,
        'created_by: Jane',
        'actor: command',
        'error: actor exited 1',
        'set_digest: >-',
        `  sha256:${'ab'.repeat(32)}`,
        'records:',
        `  - invariant_id: ${INV}`,
        '    enforced: true',
        '    actor_response: done',
        `    decision_id: ${DEC}`,
        '    digest: >-',
        `      sha256:${'cd'.repeat(32)}`,
        `  - invariant_id: ${INV}`,
        '    enforced: false',
        '    actor_response: "an older record: no digest"',
        `    decision_id: ${DEC}`,
        '',
      ].join('\n'),
    );
  });

  it('formatViolationFile, with and without its resolution', () => {
    const head = [
      '# yaml-language-server: $schema=../../../schemas/violation.schema.json',
      `id: ${RUN}`,
      `invariant_id: ${INV}`,
      'violated_text: Never delete production data',
      'severity: warning',
      'details: |-',
      '  Line one.',
      '  Line two.',
      `created_at: "${AT}"`,
      'created_by: Jane',
    ];
    const v = {
      created_by: 'Jane',
      created_at: AT,
      details: 'Line one.\nLine two.',
      severity: 'warning' as const,
      violated_text: 'Never delete production data',
      invariant_id: INV,
      id: RUN,
    };
    const rel = `plans/${PLAN}/violations/${RUN}.yaml`;
    expect(formatViolationFile(rel, v)).toBe([...head, ''].join('\n'));
    expect(formatViolationFile(rel, { resolved: { note: 'fixed', by: 'Bob', at: AT }, ...v })).toBe(
      [...head, 'resolved:', `  at: "${AT}"`, '  by: Bob', '  note: fixed', ''].join('\n'),
    );
  });

  it('formatWaiverFile', () => {
    expect(
      formatWaiverFile(`plans/${PLAN}/waivers/${RUN}.yaml`, {
        created_by: 'Jane',
        created_at: AT,
        expires: '2027-01-31',
        owner: 'Bob',
        reason: 'Migration in progress',
        invariant_id: INV,
        id: RUN,
      }),
    ).toBe(
      '# yaml-language-server: $schema=../../../schemas/waiver.schema.json\n' +
        `id: ${RUN}\ninvariant_id: ${INV}\nreason: Migration in progress\nowner: Bob\nexpires: "2027-01-31"\ncreated_at: "${AT}"\ncreated_by: Jane\n`,
    );
  });

  it('formatExtendsLockFile', () => {
    expect(
      formatExtendsLockFile('extends.lock.yaml', {
        version: 1,
        sources: [
          {
            tag_object: 'b'.repeat(40),
            commit: 'a'.repeat(40),
            kind: 'tag',
            ref: 'v1.2.0',
            url: 'https://example.com/policy.git',
            name: 'acme-policy',
          },
        ],
      }),
    ).toBe(
      [
        '# yaml-language-server: $schema=schemas/extends-lock.schema.json',
        'version: 1',
        'sources:',
        '  - name: acme-policy',
        '    url: https://example.com/policy.git',
        '    ref: v1.2.0',
        '    kind: tag',
        `    commit: ${'a'.repeat(40)}`,
        `    tag_object: ${'b'.repeat(40)}`,
        '',
      ].join('\n'),
    );
  });

  it('formatConfigFile: the config init writes', () => {
    // Every line at most 80 characters: yamllint's default rule.
    for (const choice of [undefined, { actor: 'command' }, { actor: 'llm', provider: 'openai', model: 'gpt-4.1-mini' }] as const) {
      for (const line of formatConfigFile(choice as never).split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
    expect(formatConfigFile()).toBe(
      [
        '# yaml-language-server: $schema=schemas/config.schema.json',
        'version: 1',
        '# Whether the commands that write (invariant add, edit, move, remove,',
        '# waive, plan use, …) commit their change with git; --commit and',
        '# --no-commit decide one run.',
        'commit: false',
        'reconciliation:',
        '  # Who judges plans: agent (claude, codex or gemini,',
        '  # run headless and read-only), llm (a model endpoint), command (a',
        '  # program), interactive (a person). See',
        `  # ${docsRef('actors.md')}`,
        '  # command: the actor program, argv without a shell, run in this folder.',
        '  # command: [node, actors/my-actor.mjs]',
        '  actor: command',
        '  timeout_ms: 60000',
        "# What `agents export` writes into agents' instruction files (see",
        `# ${docsRef('export.md')}):`,
        '# export:',
        '#   targets: [agents-md, claude-md, cursor]',
        '',
      ].join('\n'),
    );
  });
});

describe('a document over the size every reader refuses', () => {
  it('is refused (file-too-large), not written for every command after to stop on', () => {
    // 15,500 tags of the longest length take less than 1 MiB in a flow list (66 bytes a tag), and more one to a line
    // (69): the size refused is the written text's. Long tags rather than many: the writer's time grows with the count
    // more than with the length (1.7 s for 110,000 short tags, 0.65 s for these).
    const tag = (i: number) => `${'t'.repeat(58)}${String(i).padStart(6, '0')}`;
    const inv: Invariant = {
      id: INV,
      text: 'Many tags',
      severity: 'error',
      active: true,
      tags: Array.from({ length: 15_500 }, (_, i) => tag(i)),
    };
    expect(`[${inv.tags.join(', ')}]`.length).toBeLessThan(1024 * 1024 - 1000);
    let code: string | undefined;
    try {
      formatInvariantFile(`global/${INV}.yaml`, inv);
    } catch (e) {
      code = e instanceof AgentsError ? e.code : 'other';
    }
    expect(code).toBe('file-too-large');
    expect(formatInvariantFile(`global/${INV}.yaml`, { ...inv, tags: inv.tags.slice(0, 1000) })).toContain(`  - ${tag(999)}\n`);
  });
});

describe('formatConfigFile and the values given to init', () => {
  const model = (m: string) =>
    (parse(formatConfigFile({ actor: 'llm', provider: 'openai', model: m })) as { reconciliation: { model: unknown } }).reconciliation
      .model;

  it('writes a model name as the string it is, quoted where YAML needs it', () => {
    for (const m of ['1.5', 'yes', '[x', '{x}', 'llama3:8b', 'gpt-4o"', '&a', '*a', '!x']) expect(model(m)).toBe(m);
    expect(parse(formatConfigFile({ actor: 'agent', agent: 'claude', model: '2024' })).reconciliation.model).toBe('2024');
  });

  it('refuses a model name config.yaml would not pass (invalid-document), rather than write a store every command stops on', () => {
    for (const [m, expected] of [
      ['gpt #x', 'invalid-document'],
      ['a: b', 'invalid-document'],
      // An agent CLI given `--model -x` would read it as an option of its own.
      ['-x', 'invalid-document'],
      ['---', 'invalid-document'],
      ['x\u001b', 'usage'],
    ]) {
      let code: string | undefined;
      try {
        formatConfigFile({ actor: 'llm', provider: 'openai', model: m! });
      } catch (e) {
        code = e instanceof AgentsError ? e.code : 'other';
      }
      expect(code, m).toBe(expected);
    }
  });
});

describe('text that could hide from a reviewer is refused before anything is made', () => {
  const inv: Invariant = { id: INV, text: 'Never delete production data', severity: 'error', active: true, tags: [] };
  const MESSAGE_END =
    'control, bidirectional and invisible characters can hide or reorder text in a terminal, a log, a review or an exported file';
  function refusal(write: () => string): Record<string, unknown> {
    try {
      write();
    } catch (e) {
      if (!(e instanceof AgentsError)) throw e;
      return { name: e.name, message: e.message, hint: e.hint, detail: e.detail, exitCode: e.exitCode };
    }
    throw new Error('not refused');
  }

  it('names the field, the character and its position (exit 2)', () => {
    expect(refusal(() => formatInvariantFile(`global/${INV}.yaml`, { ...inv, text: 'Never\u001b[2K delete' }))).toEqual({
      name: 'UsageError',
      message: `cannot write global/${INV}.yaml: text holds U+001B (ESC, which starts terminal control sequences) at character 6; ${MESSAGE_END}`,
      hint: 'Nothing was written. Remove the character; tab is allowed, and a newline only in rationale, goal, details and descriptions.',
      detail: { field: 'text', character: 'U+001B' },
      exitCode: 2,
    });
    expect(refusal(() => formatInvariantFile(`global/${INV}.yaml`, { ...inv, tags: ['ok', 'b\u202e'], created_by: 'Eve\u0007' }))).toEqual({
      name: 'UsageError',
      message: `cannot write global/${INV}.yaml: tags.1 holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 2; ${MESSAGE_END}`,
      hint: 'Nothing was written. Remove the character; tab is allowed, and a newline only in rationale, goal, details and descriptions.',
      detail: { field: 'tags.1', character: 'U+202E' },
      exitCode: 2,
    });
  });

  it('in created_by, says where the name comes from', () => {
    expect(refusal(() => formatInvariantFile(`global/${INV}.yaml`, { ...inv, created_by: 'Eve\u0007' }))).toEqual({
      name: 'UsageError',
      message: `cannot write global/${INV}.yaml: created_by holds U+0007 (BEL) at character 4; ${MESSAGE_END}`,
      hint:
        'Nothing was written. Remove the character (it comes from git: user.name and user.email, or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL); ' +
        'tab is allowed, and a newline only in rationale, goal, details and descriptions.',
      detail: { field: 'created_by', character: 'U+0007' },
      exitCode: 2,
    });
  });

  it('a tab is allowed anywhere, a newline only in a multi-line field', () => {
    expect(formatInvariantFile(`global/${INV}.yaml`, { ...inv, text: 'Never\tdelete', rationale: 'One.\nTwo.' })).toBe(
      [
        '# yaml-language-server: $schema=../schemas/invariant.schema.json',
        `id: ${INV}`,
        'text: "Never\\tdelete"',
        'severity: error',
        'active: true',
        'rationale: |-',
        '  One.',
        '  Two.',
        '',
      ].join('\n'),
    );
    expect(refusal(() => formatInvariantFile(`global/${INV}.yaml`, { ...inv, text: 'One.\nTwo.' }))).toEqual({
      name: 'UsageError',
      message: `cannot write global/${INV}.yaml: text holds U+000A (LF, a newline) at character 5; ${MESSAGE_END}`,
      hint: 'Nothing was written. Remove the character; tab is allowed, and a newline only in rationale, goal, details and descriptions.',
      detail: { field: 'text', character: 'U+000A' },
      exitCode: 2,
    });
  });
});

describe('yamlDocument: a key holding the text of a placeholder', () => {
  it('is written as it is, and its value after it', () => {
    expect(yamlDocument('global/x.yaml', 'invariant.schema.json', { azz0fold000zz: 'v' })).toBe(
      '# yaml-language-server: $schema=../schemas/invariant.schema.json\nazz0fold000zz: v\n',
    );
  });
});
