// A client's settings with the guard hook merged in (src/core/guard-install.ts):
// every other byte of the file kept, comments included; once is enough.
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { hooksSwitchedOff, mergeSettingsText } from '../../src/core/guard-install.ts';

const merged = (client: Parameters<typeof mergeSettingsText>[0], text: string | undefined, program = 'agents') => {
  const r = mergeSettingsText(client, text, program);
  if ('reason' in r) throw new Error(r.reason);
  return r.text;
};
// biome-ignore lint/suspicious/noExplicitAny: settings of any shape, read back
const data = (text: string) => parse(text, [], { allowTrailingComma: true }) as Record<string, any>;

describe('mergeSettingsText', () => {
  it('adds the hook to a file with comments and its own hooks, keeping each of them', () => {
    const text = [
      '{',
      "    // the team's settings: keep them",
      '    "general": {',
      '        "vimMode": true',
      '    },',
      '    "hooks": {',
      '        /* ours first */',
      '        "BeforeTool": [{ "matcher": "Shell", "hooks": [{ "type": "command", "command": "mine" }] }]',
      '    }',
      '}',
      '',
    ].join('\n');
    const out = merged('gemini', text);
    for (const kept of ["// the team's settings: keep them", '/* ours first */', '"command": "mine"', '        "vimMode": true'])
      expect(out).toContain(kept);
    const hooks = data(out).hooks.BeforeTool;
    expect(hooks.map((h: { hooks: { command: string }[] }) => h.hooks[0]!.command)).toEqual([
      'mine',
      'agents guard hook --client gemini || exit 2',
    ]);
    // The user's line is kept as it was; what is added goes on it, as the list is written on one line.
    expect(out).toContain('        "BeforeTool": [{ "matcher": "Shell", "hooks": [{ "type": "command", "command": "mine" }] }, {');
    // Twice is once: the second merge changes no byte.
    expect(merged('gemini', out)).toBe(out);
  });

  it("fills an empty {} or [] on a line of the user's settings without laying out the rest of that line", () => {
    // One line, the list empty: the entry goes into it on that line, as the file writes it; the permissions stay as written.
    const oneLine = '{"permissions":{"allow":["Bash(npm test)"]},"hooks":{"PreToolUse":[]}}\n';
    const out = merged('claude', oneLine);
    expect(out.startsWith('{"permissions":{"allow":["Bash(npm test)"]},"hooks":{"PreToolUse":[')).toBe(true);
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(data(out).hooks.PreToolUse[0].hooks[0].command).toBe('agents guard hook --client claude || exit 2');
    expect(merged('claude', out)).toBe(out);
    // An empty `hooks` beside another key on its line: that key is kept as written, the entry goes on that line.
    const shared = '{\n  "env": {"A": "1"}, "hooks": {}\n}\n';
    const beside = merged('claude', shared);
    expect(beside.split('\n')[1]!.startsWith('  "env": {"A": "1"}, "hooks": { "PreToolUse": [ {')).toBe(true);
    expect(data(beside)).toMatchObject({ env: { A: '1' }, hooks: { PreToolUse: [{ matcher: '*' }] } });
    // On a line of its own, an empty object is laid out over lines at its indentation.
    const own = merged('cursor', '{\n\t"version": 1,\n\t"hooks": {}\n}\n');
    expect(own.split('\n').slice(0, 4)).toEqual(['{', '\t"version": 1,', '\t"hooks": {', '\t\t"beforeShellExecution": [']);
    expect(merged('cursor', own)).toBe(own);
  });

  it("adds its entry after the user's, every byte of theirs kept, in the file's indentation and line ends", () => {
    for (const eol of ['\n', '\r\n']) {
      const text = [
        '{',
        '    // my hooks',
        '    "hooks": {',
        '        "BeforeTool": [',
        '            {"matcher": "write_file", "hooks": [{"type": "command", "command": "./check.sh"}]} // mine',
        '        ]',
        '    }',
        '}',
        '',
      ].join(eol);
      const out = merged('gemini', text);
      const lines = out.split(eol);
      expect(lines.slice(0, 4)).toEqual(text.split(eol).slice(0, 4));
      expect(lines[4]).toBe('            {"matcher": "write_file", "hooks": [{"type": "command", "command": "./check.sh"}]}, // mine');
      expect(lines[5]).toBe('            {');
      expect(lines[6]).toBe('                "matcher": ".*",');
      expect(out.split(eol).slice(-5)).toEqual(['            }', '        ]', '    }', '}', '']);
      expect(data(out).hooks.BeforeTool[1].hooks[0].command).toBe('agents guard hook --client gemini || exit 2');
      expect(merged('gemini', out)).toBe(out);
    }
    // A new event after the user's, and a trailing comma (which Cursor's file may hold) used rather than doubled.
    const cursor = '{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command": "./done.sh"}],\n  },\n  "x": 1\n}\n';
    const out = merged('cursor', cursor);
    expect(
      out.startsWith('{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command": "./done.sh"}],\n    "beforeShellExecution": [\n'),
    ).toBe(true);
    expect(data(out).hooks.preToolUse[0].command).toBe('agents guard hook --client cursor');
  });

  it('replaces its own entry where it stands (another program), and leaves the others', () => {
    const first = merged(
      'claude',
      '{\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}\n}\n',
    );
    const again = merged('claude', first, 'npx --no-install agents');
    const list = data(again).hooks.PreToolUse;
    expect(list).toHaveLength(2);
    expect(list[0].hooks[0].command).toBe('x');
    expect(list[1].hooks[0].command).toBe('npx --no-install agents guard hook --client claude || exit 2');
  });

  it('refuses a Cursor version that is no number, at the value: Cursor rejects such a file whole', () => {
    for (const [text, offset] of [
      ['{"version": "1", "hooks": {}}', 12],
      ['{"version": null}', 12],
    ] as const)
      expect(mergeSettingsText('cursor', text, 'agents'), text).toMatchObject({ offset, syntax: false });
    expect(data(merged('cursor', '{"version": 1}')).version).toBe(1);
  });

  it('writes a new file', () => {
    expect(data(merged('cursor', undefined))).toMatchObject({
      version: 1,
      hooks: { beforeShellExecution: [{ command: 'agents guard hook --client cursor' }] },
    });
  });

  it('refuses a `hooks` that is no object and an event that is no list, at the value, instead of replacing the hooks they hold', () => {
    expect(mergeSettingsText('codex', '{"hooks": "see docs/hooks.md"}', 'agents')).toMatchObject({ offset: 10, syntax: false });
    expect(mergeSettingsText('cursor', '{"version": 1, "hooks": null}', 'agents')).toMatchObject({ offset: 24, syntax: false });
    const object = '{"hooks": {"PreToolUse": {"matcher": "Bash", "hooks": [{"type": "command", "command": "./my-audit.sh"}]}}}';
    expect(mergeSettingsText('claude', object, 'agents')).toMatchObject({ offset: 25, syntax: false });
    expect(mergeSettingsText('gemini', '{"hooks": {"BeforeTool": "x"}}', 'agents')).toMatchObject({ offset: 25, syntax: false });
  });

  it('refuses an entry of an event list that is not of the shape the client reads, at the entry, for every client', () => {
    const claude = (list: string) => mergeSettingsText('claude', `{"hooks": {"PreToolUse": ${list}}}`, 'agents');
    // 25 is where the list starts: each problem is at its entry, member or hook.
    expect(claude('[null, 5, {"matcher": 5}]')).toMatchObject({ offset: 26, syntax: false });
    expect(claude('[{"matcher": 5, "hooks": []}]')).toMatchObject({ offset: 38, syntax: false });
    expect(claude('[{"matcher": "*", "hooks": null}]')).toMatchObject({ offset: 52, syntax: false });
    expect(claude('[{"matcher": "*"}]')).toMatchObject({ offset: 26, syntax: false });
    expect(claude('[{"matcher": "*", "hooks": [7]}]')).toMatchObject({ offset: 53, syntax: false });
    expect(claude('[{"matcher": "*", "hooks": [{"type": "command"}]}]')).toMatchObject({ offset: 53, syntax: false });
    expect(claude('[{"hooks": [{"command": "x"}]}]')).toMatchObject({ offset: 37, syntax: false });
    expect(mergeSettingsText('codex', '{"hooks": {"PreToolUse": [[]]}}', 'agents')).toMatchObject({ offset: 26, syntax: false });
    expect(mergeSettingsText('gemini', '{"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": {}}]}}', 'agents')).toMatchObject({
      offset: 53,
      syntax: false,
    });
    expect(mergeSettingsText('cursor', '{"version": 1, "hooks": {"preToolUse": [{"matcher": "x"}]}}', 'agents')).toMatchObject({
      offset: 40,
      syntax: false,
    });
    // A hook of another type needs no command; an empty group list and a group without a matcher are read as they are.
    for (const list of ['[{"matcher": "*", "hooks": [{"type": "prompt", "prompt": "p"}]}]', '[{"hooks": []}]'])
      expect(claude(list)).toHaveProperty('text');
  });

  it('replaces only its own hook in a group it shares with the user, and takes it out of a group of another matcher', () => {
    const shared = {
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: './audit.sh' },
              { type: 'command', command: 'old guard hook --client claude', timeout: 30 },
            ],
          },
        ],
      },
    };
    const list = data(merged('claude', JSON.stringify(shared, null, 2))).hooks.PreToolUse;
    expect(list).toEqual([
      {
        matcher: '*',
        hooks: [
          { type: 'command', command: './audit.sh' },
          { type: 'command', command: 'agents guard hook --client claude || exit 2', timeout: 30 },
        ],
      },
    ]);
    shared.hooks.PreToolUse[0]!.matcher = 'Bash';
    const moved = data(merged('claude', JSON.stringify(shared, null, 2))).hooks.PreToolUse;
    expect(moved).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }] },
      { matcher: '*', hooks: [{ type: 'command', command: 'agents guard hook --client claude || exit 2', timeout: 30 }] },
    ]);
  });

  it("keeps the user's comments beside the hook it takes out of a group of another matcher", () => {
    const group = (hooks: string) =>
      `{\n  "hooks": {\n    "BeforeTool": [\n      {\n        "matcher": "run_shell_command",\n        "hooks": [\n${hooks}        ]\n      }\n    ]\n  }\n}\n`;
    const ours = '          { "type": "command", "command": "agents guard hook --client gemini" }';
    const lint = '{ "type": "command", "command": "lint-it" }';
    for (const [before, after] of [
      [`          ${lint}, // my linter\n${ours}\n`, `          ${lint} // my linter\n`],
      [`${ours},\n          // my linter, keep it\n          ${lint}\n`, `          // my linter, keep it\n          ${lint}\n`],
    ]) {
      const out = merged('gemini', group(before!));
      expect(out.startsWith(group(after!).replace(/\n {4}\]\n {2}\}\n\}\n$/, ',\n')), out).toBe(true);
      expect(data(out).hooks.BeforeTool).toHaveLength(2);
    }
  });

  it('keeps one hook of ours in a list that holds several (two installs merged), taking out the others, their groups too when only ours', () => {
    const ours = (program: string) => ({ type: 'command', command: `${program} guard hook --client claude || exit 2`, timeout: 30 });
    const mine = { type: 'command', command: './mine.sh' };
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [ours('npx agents')] },
          { matcher: '*', hooks: [ours('agents'), mine] },
          { matcher: '*', hooks: [mine, ours('node /old/bin/agents.js')] },
        ],
      },
    });
    const out = merged('claude', text);
    expect(data(out).hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [ours('agents'), mine] },
      { matcher: '*', hooks: [mine] },
    ]);
    expect(merged('claude', out)).toBe(out);
    const cursor =
      '{"version": 1, "hooks": {"beforeShellExecution": [{"command": "npx agents guard hook --client cursor"}, {"command": "./mine"}, {"command": "agents guard hook --client cursor"}]}}';
    expect(data(merged('cursor', cursor)).hooks.beforeShellExecution).toEqual([
      { command: 'agents guard hook --client cursor' },
      { command: './mine' },
    ]);
  });

  it('refuses a `hooks`, or an event of ours, given twice, at the second: the client reads the last one, an edit would land in the first', () => {
    const hooksTwice = '{"hooks": {}, "model": "x", "hooks": {"PostToolUse": []}}';
    expect(mergeSettingsText('claude', hooksTwice, 'agents')).toMatchObject({ offset: 28, syntax: false });
    const eventTwice = '{"hooks": {"BeforeTool": [], "BeforeTool": []}}';
    expect(mergeSettingsText('gemini', eventTwice, 'agents')).toMatchObject({ offset: 29, syntax: false });
    expect(mergeSettingsText('cursor', '{"version": 1, "version": 2}', 'agents')).toMatchObject({ offset: 15, syntax: false });
    // Another event given twice is the user's business: ours is added.
    const theirsTwice = '{"hooks": {"PostToolUse": [], "PostToolUse": []}}';
    expect(mergeSettingsText('claude', theirsTwice, 'agents')).toHaveProperty('text');
  });

  it('refuses Gemini CLI settings that switch the guard hook off (all hooks, or ours by name), at the setting', () => {
    const ours = 'agents guard hook --client gemini || exit 2';
    for (const [text, offset] of [
      ['{"hooksConfig": {"enabled": false}}', 28],
      ['{"hooksConfig": {"disabled": ["mine", "agents-guard"]}}', 38],
      [`{"hooks": {"disabled": [${JSON.stringify(ours)}]}}`, 24],
      ['{"hooks": {"enabled": false, "BeforeTool": []}}', 22],
    ] as const)
      expect(mergeSettingsText('gemini', text, 'agents'), text).toMatchObject({ offset, syntax: false });
    // Another hook switched off is the user's business; so is the same setting for another client.
    expect(mergeSettingsText('gemini', '{"hooksConfig": {"disabled": ["mine"]}}', 'agents')).toHaveProperty('text');
    expect(mergeSettingsText('claude', '{"hooksConfig": {"enabled": false}}', 'agents')).toHaveProperty('text');
  });

  it('refuses Claude Code settings that switch every hook off (disableAllHooks), at the setting', () => {
    expect(mergeSettingsText('claude', '{"disableAllHooks": true, "hooks": {}}', 'agents')).toMatchObject({ offset: 20, syntax: false });
    expect(mergeSettingsText('claude', '{"disableAllHooks": false}', 'agents')).toHaveProperty('text');
  });

  it("keeps a byte order mark in front of the settings it merges into, and counts it in a syntax error's place", () => {
    const out = merged('claude', '\uFEFF{\r\n  "permissions": {}\r\n}\r\n');
    expect(out.startsWith('\uFEFF{\r\n  "permissions": {},\r\n')).toBe(true);
    expect(data(out.slice(1)).hooks.PreToolUse[0].hooks[0].command).toBe('agents guard hook --client claude || exit 2');
    expect(merged('claude', out)).toBe(out);
    expect(mergeSettingsText('gemini', '\uFEFF{ "a": ', 'agents')).toEqual({ offset: 8, reason: 'value expected', syntax: true });
  });

  it("refuses a comment or a trailing comma in Codex CLI's hooks.json, which it reads as strict JSON, and drops its byte order mark", () => {
    // Codex skips every hook of a file it cannot parse strictly: the entry would be there and never run.
    expect(mergeSettingsText('codex', '{\n  // ours\n  "hooks": {}\n}\n', 'agents')).toMatchObject({ offset: 4, syntax: true });
    expect(mergeSettingsText('codex', '{"hooks": {},}\n', 'agents')).toMatchObject({ offset: 13, syntax: true });
    expect(mergeSettingsText('codex', '\uFEFF{"a": 1,}', 'agents')).toMatchObject({ offset: 9, syntax: true });
    const out = merged('codex', '\uFEFF{"hooks": {}}\n');
    expect(out.charCodeAt(0)).not.toBe(0xfeff);
    expect(JSON.parse(out).hooks.PreToolUse[0].hooks[0].command).toBe('agents guard hook --client codex || exit 2');
    expect(merged('codex', out)).toBe(out);
  });

  it('refuses what each client skips its whole file for: a comment or a trailing comma for Claude Code, a trailing comma or a byte order mark for Gemini CLI', () => {
    // Claude Code 2.1.332 skips a settings.json it cannot parse strictly ("Invalid or malformed JSON"), hooks and all.
    expect(mergeSettingsText('claude', '{\n  // team settings\n  "model": "x"\n}\n', 'agents')).toMatchObject({ offset: 4, syntax: true });
    expect(mergeSettingsText('claude', '{\n  /* c */ "model": "x"\n}\n', 'agents')).toMatchObject({ offset: 4, syntax: true });
    expect(mergeSettingsText('claude', '{"model": "x",}\n', 'agents')).toMatchObject({ offset: 14, syntax: true });
    // It takes a byte order mark, which stays.
    expect(merged('claude', '\uFEFF{"model": "x"}\n').charCodeAt(0)).toBe(0xfeff);
    // Gemini CLI strips comments, then JSON.parse: no trailing comma, and no byte order mark, which is taken out.
    expect(merged('gemini', '{\n  // ours\n  "hooks": {}\n}\n')).toContain('// ours');
    expect(mergeSettingsText('gemini', '{\n  "hooks": {},\n}\n', 'agents')).toMatchObject({ offset: 17, syntax: true });
    const gemini = merged('gemini', '\uFEFF{"tools": {}}\n');
    expect(gemini.charCodeAt(0)).not.toBe(0xfeff);
    expect(merged('gemini', gemini)).toBe(gemini);
    // Cursor's parser was not seen: its file keeps both.
    expect(merged('cursor', '{\n  // ours\n  "version": 1,\n}\n')).toContain('// ours');
    // A switch in a file the client skips switches nothing.
    expect(hooksSwitchedOff('claude', '{\n  // mine\n  "disableAllHooks": true\n}\n')).toBeUndefined();
    expect(hooksSwitchedOff('claude', '{"disableAllHooks": true}')).toMatchObject({ offset: 20 });
    expect(hooksSwitchedOff('gemini', '{"hooksConfig": {"enabled": false},}')).toBeUndefined();
  });

  it('reads a switch given twice as the clients do, the last one', () => {
    const claude = '{"disableAllHooks": false, "disableAllHooks": true}';
    expect(mergeSettingsText('claude', claude, 'agents')).toMatchObject({ offset: 46, syntax: false });
    expect(hooksSwitchedOff('claude', claude)).toMatchObject({ offset: 46 });
    expect(mergeSettingsText('claude', '{"disableAllHooks": true, "disableAllHooks": false}', 'agents')).toHaveProperty('text');
    const gemini = '{"hooksConfig": {"enabled": true, "enabled": false}}';
    expect(mergeSettingsText('gemini', gemini, 'agents')).toMatchObject({ offset: 45, syntax: false });
    // A group whose hooks are given twice is read by its last: a list of null is no list.
    const group = '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [], "hooks": null}]}}';
    expect(mergeSettingsText('claude', group, 'agents')).toMatchObject({ syntax: false });
  });

  it('refuses settings nested deeper than the parser can follow, at the level past the limit, counting no bracket of a string or comment', () => {
    const deep = (n: number) => `{"a": ${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(mergeSettingsText('gemini', deep(100_000), 'agents')).toMatchObject({ offset: 6 + 255, syntax: false });
    const quoted = `{"a": "${'['.repeat(300)}", /* ${'{'.repeat(300)} */ "b": ${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(merged('gemini', quoted)).toContain('"b": [[');
  });

  it('refuses what is not a JSON object, saying where it breaks', () => {
    expect(mergeSettingsText('gemini', '{ "a": ', 'agents')).toEqual({ offset: 7, reason: 'value expected', syntax: true });
    expect(mergeSettingsText('gemini', '[1]', 'agents')).toMatchObject({ syntax: false });
  });

  it('refuses a file that is one value but no object (null, a list, a string) at that value, with a hint of its own for every client', () => {
    for (const client of ['claude', 'codex', 'gemini', 'cursor'] as const)
      for (const text of ['null', '[]', '"x"', '\n  [1]\n']) {
        const r = mergeSettingsText(client, text, 'agents');
        // Its own hint: the generic one is about the shape of `hooks`, which this file does not reach.
        expect(r, `${client} ${text}`).toMatchObject({ offset: text.indexOf(text.trim()), syntax: false, hint: expect.any(String) });
      }
  });
});
