import { describe, expect, it } from 'vitest';
import { clientAnswer, errorAnswer } from '../../src/core/guard-answers.ts';
import { UsageError } from '../../src/core/errors.ts';
import { detectClient, GuardInputError, parseClientInput } from '../../src/core/guard-clients.ts';
import { patchParts } from '../../src/core/guard-scripts.ts';
import { compileRegex } from '../../src/core/guard-patterns.ts';

// Hook inputs in the shapes the clients send: Claude Code 2.1, Codex CLI 0.171 and Gemini CLI 0.61 as
// captured from real runs; Cursor's from its hooks documentation.
const claudeWrite = {
  session_id: '100908f0-3122-4cce-a421-e2430b704383',
  transcript_path: '/home/dev/proj/100908f0.jsonl',
  cwd: '/home/dev/proj',
  prompt_id: 'd4b7e300-376b-40af-bb10-b5afe0746dd6',
  permission_mode: 'bypassPermissions',
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: '/home/dev/proj/protected/secret.txt', content: 'x' },
  tool_use_id: 'toolu_mx599iol1',
};
const claudeBash = { ...claudeWrite, tool_name: 'Bash', tool_input: { command: 'rm -rf build', description: 'remove build dir' } };
const claudeEdit = { ...claudeWrite, tool_name: 'Edit', tool_input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } };
const claudeMultiEdit = {
  ...claudeWrite,
  tool_name: 'MultiEdit',
  tool_input: {
    file_path: 'src/a.ts',
    edits: [
      { old_string: 'a', new_string: 'b1' },
      { old_string: 'c', new_string: 'b2' },
    ],
  },
};
const claudeMcp = { ...claudeWrite, tool_name: 'mcp__db__drop_table', tool_input: { table: 'users' } };
const codexBash = {
  session_id: '01a233ae-c96b-7cf2-8725-3b4066972ad3',
  turn_id: '01a233ae-c982-7e81-be3a-d043e08a2e12',
  transcript_path: '/home/dev/.codex/sessions/rollout.jsonl',
  cwd: '/home/dev/proj',
  hook_event_name: 'PreToolUse',
  model: 'stub-model',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
  tool_use_id: 'call_mx59bqyf3',
};
const codexPatch = {
  ...codexBash,
  tool_name: 'apply_patch',
  tool_input: { command: '*** Begin Patch\n*** Add File: protected/secret.txt\n+x\n*** End Patch\n' },
};
const geminiWrite = {
  session_id: '92763e25-e34c-4ad4-be82-677b526f8df2',
  transcript_path: '/home/dev/proj/chats/session.jsonl',
  cwd: '/home/dev/proj',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-12-01T22:18:35.277Z',
  tool_name: 'write_file',
  tool_input: { file_path: '/home/dev/proj/protected/secret.txt', content: 'x' },
};
const geminiShell = { ...geminiWrite, tool_name: 'run_shell_command', tool_input: { command: 'rm -rf build', dir_path: 'sub' } };
const geminiReplace = { ...geminiWrite, tool_name: 'replace', tool_input: { file_path: 'a.txt', old_string: 'a', new_string: 'AKIA' } };
const cursorCommon = { conversation_id: 'conv-123', generation_id: 'gen-456', workspace_roots: ['/home/dev/proj'] };
const cursorShell = { ...cursorCommon, hook_event_name: 'beforeShellExecution', command: 'npm install express', cwd: '/home/dev/proj/app' };
const cursorMcp = {
  ...cursorCommon,
  hook_event_name: 'beforeMCPExecution',
  tool_name: 'database_query',
  tool_input: { query: 'DROP TABLE users' },
};
const cursorRead = { ...cursorCommon, hook_event_name: 'beforeReadFile', file_path: '/home/dev/proj/secrets.env', content: 'K=v' };
const cursorAfterEdit = {
  ...cursorCommon,
  hook_event_name: 'afterFileEdit',
  file_path: '/home/dev/proj/src/main.ts',
  edits: [{ old_string: 'const foo = 1', new_string: 'const foo = 2' }],
};
const cursorPreToolUse = {
  ...cursorCommon,
  hook_event_name: 'preToolUse',
  tool_name: 'Write',
  tool_input: { file_path: '/home/dev/proj/protected/x', contents: 'y' },
};

describe('every captured input shape becomes one action', () => {
  it.each([
    ['claude Write', claudeWrite, { client: 'claude', tool: 'Write', paths: ['/home/dev/proj/protected/secret.txt'], texts: ['x'] }],
    [
      'claude Bash',
      claudeBash,
      { client: 'claude', tool: 'Bash', paths: ['build'], removes: ['build'], texts: [], command: 'rm -rf build' },
    ],
    ['claude Edit', claudeEdit, { client: 'claude', tool: 'Edit', paths: ['src/a.ts'], texts: ['b'] }],
    ['claude MultiEdit', claudeMultiEdit, { client: 'claude', tool: 'MultiEdit', paths: ['src/a.ts'], texts: ['b1', 'b2'] }],
    ['claude MCP tool', claudeMcp, { client: 'claude', tool: 'mcp__db__drop_table', paths: [], texts: ['{"table":"users"}', 'users'] }],
    ['codex Bash', codexBash, { client: 'codex', tool: 'Bash', paths: ['build'], removes: ['build'], command: 'rm -rf build' }],
    ['codex apply_patch', codexPatch, { client: 'codex', tool: 'apply_patch', paths: ['protected/secret.txt'], texts: ['x'] }],
    [
      'gemini write_file',
      geminiWrite,
      { client: 'gemini', tool: 'write_file', paths: ['/home/dev/proj/protected/secret.txt'], texts: ['x'] },
    ],
    [
      'gemini run_shell_command',
      geminiShell,
      { client: 'gemini', tool: 'run_shell_command', command: 'rm -rf build', cwd: '/home/dev/proj', dir: 'sub' },
    ],
    ['gemini replace', geminiReplace, { client: 'gemini', tool: 'replace', paths: ['a.txt'], texts: ['AKIA'] }],
    [
      'cursor beforeShellExecution',
      cursorShell,
      { client: 'cursor', tool: 'Shell', command: 'npm install express', cwd: '/home/dev/proj/app' },
    ],
    [
      'cursor beforeMCPExecution',
      cursorMcp,
      { client: 'cursor', tool: 'database_query', texts: ['{"query":"DROP TABLE users"}', 'DROP TABLE users'] },
    ],
    // An MCP filesystem server's write names its file, as through the other clients' PreToolUse: the write guards see it.
    [
      'cursor beforeMCPExecution of a file tool',
      { ...cursorMcp, tool_name: 'write_file', tool_input: { path: '.git/config', content: 'x' } },
      { client: 'cursor', tool: 'write_file', paths: ['.git/config'], texts: ['x'] },
    ],
    [
      'cursor beforeMCPExecution, arguments as JSON text',
      { ...cursorMcp, tool_name: 'write_file', tool_input: '{"path":"protected/x","content":"x"}' },
      { client: 'cursor', tool: 'write_file', paths: ['protected/x'], texts: ['x'] },
    ],
    ['cursor preToolUse', cursorPreToolUse, { client: 'cursor', tool: 'Write', paths: ['/home/dev/proj/protected/x'], texts: ['y'] }],
  ])('%s', (_name, input, expected) => {
    const action = parseClientInput(JSON.stringify(input));
    expect(action).toMatchObject({ ...expected, blocking: true });
  });

  it('reads a document that starts with a byte-order mark as the same call, not as input that is no JSON', () => {
    expect(parseClientInput(`\uFEFF${JSON.stringify(claudeWrite)}`)).toEqual(parseClientInput(JSON.stringify(claudeWrite)));
  });

  it.each([
    ['claude Read', { ...claudeWrite, tool_name: 'Read', tool_input: { file_path: '/home/dev/proj/protected/secret.txt' } }],
    ['claude Grep', { ...claudeWrite, tool_name: 'Grep', tool_input: { pattern: 'AKIA', path: '/home/dev/proj/protected/secret.txt' } }],
    ['claude Glob', { ...claudeWrite, tool_name: 'Glob', tool_input: { pattern: '**/*.pem', path: '/home/dev/proj/protected' } }],
    ['gemini read_file', { ...geminiWrite, tool_name: 'read_file', tool_input: { absolute_path: '/home/dev/proj/protected/secret.txt' } }],
    ['gemini list_directory', { ...geminiWrite, tool_name: 'list_directory', tool_input: { path: '/home/dev/proj/protected' } }],
    // The MCP filesystem server's read tools, by their own name after the server's.
    [
      'claude mcp read_text_file',
      { ...claudeWrite, tool_name: 'mcp__filesystem__read_text_file', tool_input: { path: 'protected/a.pem' } },
    ],
    ['claude mcp read_file', { ...claudeWrite, tool_name: 'mcp__files__read_file', tool_input: { path: 'protected/a.pem' } }],
    ['gemini mcp search_files', { ...geminiWrite, tool_name: 'filesystem__search_files', tool_input: { path: 'protected', pattern: 'x' } }],
    // Gemini CLI's own spelling of an MCP tool, mcp_SERVER_TOOL.
    ['gemini mcp_ read_text_file', { ...geminiWrite, tool_name: 'mcp_filesystem_read_text_file', tool_input: { path: 'protected/a.pem' } }],
    ['gemini mcp_ list_directory', { ...geminiWrite, tool_name: 'mcp_fs_list_directory', tool_input: { path: 'protected' } }],
    ['gemini mcp_ glob', { ...geminiWrite, tool_name: 'mcp_fs-2_glob', tool_input: { path: 'protected', pattern: '*' } }],
  ])('%s: a tool that only reads names no file written and no text', (_name, input) => {
    expect(parseClientInput(JSON.stringify(input))).toMatchObject({ paths: [], texts: [], blocking: true });
  });

  it("takes the Serena MCP server's file tools by their relative_path and the text they write, and its searches as reads", () => {
    const serena = (tool: string, input: Record<string, unknown>) =>
      parseClientInput(JSON.stringify({ ...claudeWrite, tool_name: `mcp__serena__${tool}`, tool_input: input }));
    expect(serena('create_text_file', { relative_path: 'protected/a.pem', content: 'AKIA' })).toMatchObject({
      paths: ['protected/a.pem'],
      texts: ['AKIA'],
    });
    // The text it replaces (`needle`) is the file's already; its other arguments are looked at as well.
    expect(serena('replace_content', { relative_path: 'protected/a.pem', needle: 'x', repl: 'AKIA', mode: 'literal' })).toMatchObject({
      paths: ['protected/a.pem'],
      texts: ['AKIA', '{"mode":"literal"}', 'literal'],
    });
    expect(serena('replace_symbol_body', { name_path: 'f', relative_path: 'src/a.ts', body: 'AKIA' })).toMatchObject({
      paths: ['src/a.ts'],
      texts: ['AKIA', '{"name_path":"f"}', 'f'],
    });
    expect(serena('delete_lines', { relative_path: 'protected/a.pem', start_line: 1, end_line: 2 }).paths).toEqual(['protected/a.pem']);
    for (const tool of [
      'read_file',
      'list_dir',
      'find_file',
      'search_for_pattern',
      'get_symbols_overview',
      'find_symbol',
      'find_referencing_symbols',
    ])
      expect(serena(tool, { relative_path: 'protected', substring_pattern: 'x' }), tool).toMatchObject({ paths: [], texts: [] });
  });

  it("takes a Gemini CLI MCP tool for a reader only where its server's name can be told: no writer passes by the end of its name", () => {
    const gemini = (tool: string) =>
      parseClientInput(JSON.stringify({ ...geminiWrite, tool_name: tool, tool_input: { path: 'protected/a.pem', pattern: '*' } }));
    // A writing tool whose name ends in a reader's (server fs, tool delete_glob), or a server whose name holds `_`:
    // its own name cannot be told, so it is judged by the file it names.
    for (const tool of [
      'mcp_fs_delete_glob',
      'mcp_fs_write_read_file',
      'mcp_my_fs_read_file',
      'mcp_fs_',
      'mcp__read_file_x',
      'xmcp_fs_read_file',
    ])
      expect(gemini(tool).paths, tool).toEqual(['protected/a.pem']);
  });

  it('names a Gemini CLI MCP tool given with mcp_context as Claude Code does, keeping its own spelling beside it, and knows a reader by its own name', () => {
    const mcp = (server: string, tool: string, input: object) =>
      parseClientInput(
        JSON.stringify({
          ...geminiWrite,
          tool_name: `mcp_${server}_${tool}`,
          tool_input: input,
          mcp_context: { server_name: server, tool_name: tool },
        }),
      );
    expect(mcp('db', 'drop_table', { table: 'users' })).toMatchObject({ tool: 'mcp__db__drop_table', clientTool: 'mcp_db_drop_table' });
    // A server whose name holds `_`: its read is a read, its write a write.
    expect(mcp('my_fs', 'read_file', { path: 'protected/a.pem' })).toMatchObject({ tool: 'mcp__my_fs__read_file', paths: [] });
    expect(mcp('my_fs', 'delete_glob', { path: 'protected/a.pem' }).paths).toEqual(['protected/a.pem']);
  });

  it("takes Claude Code's StructuredOutput (the run's final answer) as writing nothing; an MCP tool of that name still has its text judged", () => {
    const answer = { ...claudeWrite, tool_name: 'StructuredOutput', tool_input: { results: [{ response: 'DROP TABLE users' }] } };
    expect(parseClientInput(JSON.stringify(answer))).toMatchObject({ tool: 'StructuredOutput', paths: [], texts: [] });
    const mcp = { ...claudeWrite, tool_name: 'mcp__db__StructuredOutput', tool_input: { sql: 'DROP TABLE users' } };
    expect(parseClientInput(JSON.stringify(mcp)).texts).toEqual(['{"sql":"DROP TABLE users"}', 'DROP TABLE users']);
  });

  it("names both files of a move (the MCP filesystem server's move_file), and a write tool's destination", () => {
    const move = {
      ...claudeWrite,
      tool_name: 'mcp__filesystem__move_file',
      tool_input: { source: 'notes.txt', destination: 'protected/a.pem' },
    };
    expect(parseClientInput(JSON.stringify(move))).toMatchObject({ paths: ['protected/a.pem', 'notes.txt'], texts: [] });
    const copy = { ...claudeWrite, tool_name: 'mcp__files__copy', tool_input: { source: 'notes.txt', destination: 'protected/b.pem' } };
    expect(parseClientInput(JSON.stringify(copy))).toMatchObject({ paths: ['protected/b.pem'] });
    const write = { ...claudeWrite, tool_name: 'mcp__filesystem__write_file', tool_input: { path: 'protected/c.pem', content: 'AKIA' } };
    expect(parseClientInput(JSON.stringify(write))).toMatchObject({ paths: ['protected/c.pem'], texts: ['AKIA'] });
  });

  it('takes the arguments beside the file of a tool that holds its text under no known key, as the content written', () => {
    const data = { ...claudeWrite, tool_name: 'mcp__store__put_file', tool_input: { path: 'notes.md', data: 'AKIA' } };
    expect(parseClientInput(JSON.stringify(data))).toMatchObject({ paths: ['notes.md'], texts: ['{"data":"AKIA"}', 'AKIA'] });
    const listed = {
      ...claudeWrite,
      tool_name: 'mcp__docs__write',
      tool_input: { path: 'notes.md', content: [{ type: 'text', text: 'AKIA' }] },
    };
    expect(parseClientInput(JSON.stringify(listed))).toMatchObject({
      texts: ['{"content":[{"type":"text","text":"AKIA"}]}', 'text\nAKIA'],
    });
    const remove = { ...claudeWrite, tool_name: 'mcp__fs__delete_file', tool_input: { path: 'notes.md' } };
    expect(parseClientInput(JSON.stringify(remove))).toMatchObject({ paths: ['notes.md'], texts: [] });
  });

  it('matches the strings of those arguments as written: a quote, a backslash or a line break escaped in their JSON hides nothing', () => {
    const files = [{ path: 'settings.py', content: 'X = 1\nDEBUG=true\npassword = "hunter2!"\npath = C:\\Windows\n' }];
    const input = { ...claudeWrite, tool_name: 'mcp__github__push_files', tool_input: { repo: 'r', branch: 'main', files } };
    const { texts } = parseClientInput(JSON.stringify(input));
    // Before, each met only the JSON text, where the line breaks are `\n` and the quotes `\"`.
    for (const pattern of ['(?m)^DEBUG=true$', 'password = "[^"]+"', 'C:\\\\Windows'])
      expect(
        texts.some((t) => compileRegex(pattern)(t)),
        pattern,
      ).toBe(true);
    // A pattern written against the arguments' JSON still meets it.
    expect(texts.some((t) => compileRegex('"branch":"main"')(t))).toBe(true);
  });

  it('takes the arguments beside a text it knows as well: a `content` the tool drops does not hide its `data`', () => {
    const decoy = { ...claudeWrite, tool_name: 'mcp__store__put_file', tool_input: { path: 'notes.md', content: 'hi', data: 'AKIA' } };
    expect(parseClientInput(JSON.stringify(decoy))).toMatchObject({ paths: ['notes.md'], texts: ['hi', '{"data":"AKIA"}', 'AKIA'] });
    const named = { ...claudeWrite, tool_name: 'mcp__x__post', tool_input: { text: 'hi', payload: 'AKIA' } };
    expect(parseClientInput(JSON.stringify(named)).texts).toEqual(['hi', '{"payload":"AKIA"}', 'AKIA']);
    // An edit's replaced text is the file's already: removing a key is no write of it.
    const edit = { ...claudeWrite, tool_name: 'Edit', tool_input: { file_path: 'a', old_string: 'AKIA', new_string: '' } };
    expect(parseClientInput(JSON.stringify(edit)).texts).toEqual(['']);
    const multi = {
      ...claudeWrite,
      tool_name: 'MultiEdit',
      tool_input: { file_path: 'a', edits: [{ old_string: 'AKIA', new_string: '' }] },
    };
    expect(parseClientInput(JSON.stringify(multi)).texts).toEqual(['']);
  });

  it("gives a copy's two ends as a move's, its source not written", () => {
    const input = { ...claudeWrite, tool_name: 'mcp__fs__copy_directory', tool_input: { source: 'public', destination: 'secrets' } };
    expect(parseClientInput(JSON.stringify(input))).toMatchObject({
      paths: ['secrets'],
      moves: [{ from: 'public', to: 'secrets', copy: true }],
    });
  });

  it('gives what a deleting tool names as removed, known by the end of its name', () => {
    for (const tool of ['mcp__fs__delete_directory', 'mcp_fs_delete_file', 'fs__remove', 'mcp__x__delete'])
      expect(parseClientInput(JSON.stringify({ ...claudeWrite, tool_name: tool, tool_input: { path: 'secrets' } })), tool).toMatchObject({
        paths: ['secrets'],
        removes: ['secrets'],
      });
    const write = parseClientInput(
      JSON.stringify({ ...claudeWrite, tool_name: 'mcp__fs__write_file', tool_input: { path: 'a', content: 'x' } }),
    );
    expect(write.removes).toBeUndefined();
  });

  it("takes the new text of the MCP filesystem server's edit_file (edits[].newText), every edit of it", () => {
    const edit = {
      ...claudeWrite,
      tool_name: 'mcp__filesystem__edit_file',
      tool_input: {
        path: 'notes.md',
        edits: [
          { oldText: 'a', newText: 'aws_key=AKIAABCDEFGHIJKLMNOP' },
          { oldText: 'b', newText: 'c' },
        ],
        dryRun: false,
      },
    };
    expect(parseClientInput(JSON.stringify(edit))).toMatchObject({
      paths: ['notes.md'],
      texts: ['aws_key=AKIAABCDEFGHIJKLMNOP', 'c', '{"dryRun":false}'],
    });
  });

  it('takes each new text an edit holds: a decoy under another key does not hide the one the server reads', () => {
    const edit = {
      ...claudeWrite,
      tool_name: 'mcp__filesystem__edit_file',
      tool_input: { path: 'notes.md', edits: [{ oldText: 'a', newText: 'aws_key=AKIAABCDEFGHIJKLMNOP', new_string: 'b' }] },
    };
    expect(parseClientInput(JSON.stringify(edit)).texts).toEqual(['b', 'aws_key=AKIAABCDEFGHIJKLMNOP']);
    // The other keys of an edit too, as the tool's own: a `newText` beside a `content` the server writes does not hide it.
    const other = {
      ...claudeWrite,
      tool_name: 'mcp__notes__edit',
      tool_input: { path: 'notes.md', edits: [{ oldText: 'AKIA', newText: 'b', content: 'aws_key=AKIAABCDEFGHIJKLMNOP' }] },
    };
    expect(parseClientInput(JSON.stringify(other)).texts).toEqual([
      'b',
      '{"content":"aws_key=AKIAABCDEFGHIJKLMNOP"}',
      'aws_key=AKIAABCDEFGHIJKLMNOP',
    ]);
  });

  it.each(['shell', 'local_shell', 'Bash', 'exec_command'])(
    '%s: a command given as an argv array is the command, joined with spaces',
    (tool) => {
      const input = { ...codexBash, tool_name: tool, tool_input: { command: ['bash', '-lc', 'terraform apply'], workdir: 'sub' } };
      expect(parseClientInput(JSON.stringify(input))).toMatchObject({
        paths: [],
        command: 'bash -lc terraform apply',
        cwd: '/home/dev/proj',
        dir: 'sub',
      });
      const cmd = { ...codexBash, tool_name: tool, tool_input: { cmd: ['terraform', 'apply'] } };
      expect(parseClientInput(JSON.stringify(cmd))).toMatchObject({ command: 'terraform apply' });
    },
  );

  it('cannot decide a tool given one thing under two keys with different values: which one it reads is not in its input', () => {
    const patch = '*** Begin Patch\n*** Add File: secrets/k.pem\n+x\n*** End Patch';
    for (const [tool, toolInput] of [
      ['exec_command', { cmd: 'rm -r secrets', command: 'ls' }],
      ['mcp__shell__run', { command: 'ls', cmd: ['rm', '-r', 'secrets'] }],
      ['apply_patch', { input: patch, command: 'echo' }],
      ['shell', { command: ['terraform', 'apply'], workdir: 'services/billing', dir_path: '' }],
      ['run_shell_command', { command: 'terraform apply', dir_path: 'services/billing', directory: '.' }],
    ] as const)
      expect(() => parseClientInput(JSON.stringify({ ...codexBash, tool_name: tool, tool_input: toolInput })), tool).toThrow(
        GuardInputError,
      );
    // The same value under two keys is one value; a tool that runs no command names no folder to run it in.
    const same = { ...codexBash, tool_name: 'exec_command', tool_input: { cmd: 'ls', command: 'ls', workdir: 'a', cwd: 'a' } };
    expect(parseClientInput(JSON.stringify(same))).toMatchObject({ command: 'ls', dir: 'a' });
    const search = { ...claudeWrite, tool_name: 'mcp__x__search', tool_input: { directory: 'a', cwd: 'b', query: 'q' } };
    expect(parseClientInput(JSON.stringify(search)).dir).toBeUndefined();
  });

  it('reads arguments nested however deep as their JSON text and their strings (the model writes them), for any client', () => {
    const n = 200_000;
    const deep = `{"a":${'['.repeat(n)}"AKIAABCDEFGHIJKLMNOP"${']'.repeat(n)}}`;
    for (const input of [
      `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"mcp__x__y","tool_input":${deep}}`,
      `{"hook_event_name":"beforeMCPExecution","conversation_id":"c","workspace_roots":["/p"],"tool_name":"q","tool_input":${deep}}`,
    ])
      expect(parseClientInput(input).texts).toEqual([deep, 'AKIAABCDEFGHIJKLMNOP']);
  });

  it("gives a tool's arguments as JSON.stringify writes them, and their strings as written", () => {
    const args = { a: 1, b: [1, -0.5e10, { c: 'x"y\u2028\n', d: null, e: true }], f: {}, g: [], ['__proto__']: [3] };
    const raw = `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"mcp__x__y","tool_input":${JSON.stringify(args)}}`;
    expect(parseClientInput(raw).texts).toEqual([JSON.stringify(JSON.parse(raw).tool_input), 'x"y\u2028\n']);
  });

  it("names the folder a program's own option runs it in (git -C, make -C, env -C, -chdir=, --prefix, --cwd), from where the script is then", () => {
    const bash = (command: string) => parseClientInput(JSON.stringify({ ...claudeWrite, tool_name: 'Bash', tool_input: { command } }));
    for (const command of [
      'make -C services/billing deploy',
      'make --directory=services/billing deploy',
      'env -C services/billing make deploy',
      'env --chdir services/billing make deploy',
      'git -C "services/billing" push',
      'terraform -chdir=services/billing apply',
      'npm --prefix services/billing run deploy',
      'yarn --cwd services/billing deploy',
      'pnpm --dir services/billing deploy',
    ])
      expect(bash(command).cds, command).toContain('services/billing');
    // From the folder a `cd` before it went to; and it changes no folder for what follows.
    expect(bash('cd services && make -C billing deploy').cds).toContain('services/billing');
    expect(bash('make -C services/billing && cd app').cds).toEqual(expect.arrayContaining(['services/billing', 'app']));
    expect(bash('make -C services/billing && cd app').cds).not.toContain('services/billing/app');
    // A name longer than any path is no folder the program enters, and makes the call no less decidable.
    expect(bash(`make -C ${'a'.repeat(5000)} deploy`).cds).toBeUndefined();
    expect(bash('make deploy').cds).toBeUndefined();
    // An option that only starts with one of those names is another option, naming no folder.
    for (const command of ['git describe --dirty', 'ls --directory-first x', 'npm --prefix-only x'])
      expect(bash(command).cds, command).toBeUndefined();
  });

  it('names each folder a command changes to (cd, pushd), as written: relative, absolute or from the home folder', () => {
    const bash = (command: string) => parseClientInput(JSON.stringify({ ...claudeWrite, tool_name: 'Bash', tool_input: { command } }));
    expect(bash('cd ~/repo/secrets && rm x').cds).toEqual(['~/repo/secrets']);
    expect(bash('cd services && pushd billing; make').cds).toEqual(['services', 'services/billing', 'billing']);
    expect(bash('cd /abs; cd ~ && make').cds).toEqual(['/abs', '~']);
    // `~user` is that user's home folder to the shell: a fresh start, not a folder below the one before.
    expect(bash('cd notes; cd ~bob/repo && make').cds).toEqual(['notes', '~bob/repo']);
    expect(bash('make deploy').cds).toBeUndefined();
    // A folder's name in pieces, quoted and not, is one word to the shell: its first piece is kept as a folder too.
    expect(bash('cd "services"/billing && terraform apply').cds).toEqual(['services/billing', 'services']);
    expect(bash('bash -c "cd services/app" && echo "x"').cds).toContain('services/app');
    // A change of folder after it goes on from the folder the whole word names, and from nothing when that one failed.
    expect(bash('cd "services"/billing && cd prod && terraform apply').cds).toEqual(
      expect.arrayContaining(['services/billing/prod', 'services/billing']),
    );
    expect(bash('cd /abs; cd "services"/billing && terraform apply').cds).toEqual(
      expect.arrayContaining(['/abs/services/billing', 'services/billing']),
    );
    // A quoted word of megabytes, never closed, is read as far as a folder's name can go, and judged as written.
    expect(bash(`cd "${'a'.repeat(15_000_000)}`).cds).toBeUndefined();
    // A script given to a shell in quotes or backticks runs its cd too.
    expect(bash('bash -c "cd services/app && make deploy"').cds).toEqual(['services/app']);
    expect(bash("sh -c 'cd services/app; make deploy'").cds).toEqual(['services/app']);
    expect(bash('echo `cd services/app && make deploy`').cds).toEqual(['services/app']);
    const patch = '*** Begin Patch\n*** Add File: k.pem\n+k\n*** End Patch\n';
    expect(bash(`bash -lc "cd secrets; apply_patch <<'EOF'\n${patch}EOF\n"`).paths).toEqual(['k.pem', 'secrets/k.pem']);
    const cursor = parseClientInput(JSON.stringify({ ...cursorShell, command: 'cd app && npm publish' }));
    expect(cursor).toMatchObject({ command: 'cd app && npm publish', cds: ['app'], cwd: '/home/dev/proj/app' });
  });

  it("takes the folder a shell tool names for its command: the Serena MCP server's execute_shell_command's cwd", () => {
    const serena = { ...claudeWrite, tool_name: 'mcp__serena__execute_shell_command', tool_input: { command: 'make deploy', cwd: 'sub' } };
    expect(parseClientInput(JSON.stringify(serena))).toMatchObject({ command: 'make deploy', cwd: '/home/dev/proj', dir: 'sub' });
  });

  it('reads the session id and the working folder', () => {
    expect(parseClientInput(JSON.stringify(claudeWrite))).toMatchObject({ session: claudeWrite.session_id, cwd: '/home/dev/proj' });
    expect(parseClientInput(JSON.stringify(cursorMcp))).toMatchObject({ session: 'conv-123', cwd: '/home/dev/proj' });
  });

  it("answers nothing to events that cannot block (Cursor's beforeReadFile reads, afterFileEdit is after the fact)", () => {
    expect(parseClientInput(JSON.stringify(cursorRead)).blocking).toBe(false);
    expect(parseClientInput(JSON.stringify(cursorAfterEdit))).toMatchObject({ blocking: false, paths: ['/home/dev/proj/src/main.ts'] });
  });

  it('recognises each client by its fields, and --client overrides', () => {
    expect([claudeWrite, codexBash, geminiWrite, cursorShell].map((i) => detectClient(i))).toEqual(['claude', 'codex', 'gemini', 'cursor']);
    expect(parseClientInput(JSON.stringify(codexBash), 'claude').client).toBe('claude');
  });

  it.each([
    ['not JSON', '{"tool_name": '],
    ['not an object', '[1,2]'],
    ['no event', JSON.stringify({ cwd: '/x', tool_name: 'Write' })],
    ['no working folder', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write' })],
    ['no tool', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: '/x' })],
    ['empty', ''],
  ])('refuses input that is %s', (_name, raw) => {
    expect(() => parseClientInput(raw)).toThrow(GuardInputError);
  });
});

describe('a tool_input given as the JSON text of its arguments (some clients and proxies send it so)', () => {
  it.each([
    ['claude Write', claudeWrite],
    ['claude Bash', claudeBash],
    ['claude MultiEdit', claudeMultiEdit],
    ['codex shell', codexBash],
    ['codex apply_patch', codexPatch],
    ['gemini write_file', geminiWrite],
    ['gemini run_shell_command', geminiShell],
    ['cursor preToolUse', cursorPreToolUse],
    ['cursor beforeMCPExecution', cursorMcp],
  ] as const)('%s: read as the same arguments given as an object', (_name, input) => {
    const given = parseClientInput(JSON.stringify(input));
    expect(parseClientInput(JSON.stringify({ ...input, tool_input: JSON.stringify(input.tool_input) }))).toEqual(given);
    expect(given.paths.length + given.texts.length + (given.command === undefined ? 0 : 1)).toBeGreaterThan(0);
  });

  it.each([
    ['a text that is not JSON', 'rm -rf secrets'],
    ['the JSON text of no object', '["secrets/k"]'],
    ['a list', [{ file_path: 'secrets/k' }]],
    ['a number', 1],
  ])('%s is a call the hook cannot decide, never one of no arguments', (_name, toolInput) => {
    // Cursor's beforeMCPExecution too: every client's tool call is read by one route, none matched as text alone.
    for (const input of [claudeWrite, codexBash, geminiWrite, cursorPreToolUse, cursorMcp])
      expect(() => parseClientInput(JSON.stringify({ ...input, tool_input: toolInput }))).toThrow(GuardInputError);
  });
});

describe('apply_patch', () => {
  it('names every path a patch adds, updates, deletes or moves to, and the lines it adds', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: a/new.txt',
      '+hello',
      '+AKIA0000',
      '*** Update File: b/old.txt',
      '*** Move to: c/moved.txt',
      '@@',
      '-x',
      '+y',
      '*** Delete File: d/gone.txt',
      '*** End Patch',
    ].join('\n');
    expect(patchParts(patch)).toEqual({ paths: ['a/new.txt', 'b/old.txt', 'c/moved.txt', 'd/gone.txt'], texts: ['hello\nAKIA0000\ny'] });
  });

  it('reads a header with white space before it, as Codex does (its parser trims the header line)', () => {
    const patch = ['*** Begin Patch', '  *** Add File: secrets/a.key', '+k', '\t*** Delete File: secrets/b.key ', '*** End Patch'].join(
      '\n',
    );
    expect(patchParts(patch)).toEqual({ paths: ['secrets/a.key', 'secrets/b.key'], texts: ['k'] });
  });

  it('takes a line starting with +++ as added, as Codex adds it (the format has no +++ header)', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: notes.txt',
      '+++AKIAABCDEFGHIJKLMNOP',
      '*** Update File: a.txt',
      '@@',
      '-x',
      '+++ y',
      '*** End Patch',
    ];
    expect(patchParts(patch.join('\n'))).toEqual({ paths: ['notes.txt', 'a.txt'], texts: ['++AKIAABCDEFGHIJKLMNOP\n++ y'] });
  });
});

describe('a move of an MCP server, whatever the client calls it', () => {
  it("names the file it takes away as well as the one it makes (Gemini CLI's mcp_SERVER_TOOL too), and not a remove", () => {
    const gemini = (tool: string) =>
      parseClientInput(
        JSON.stringify({
          session_id: 's',
          cwd: '/p',
          hook_event_name: 'BeforeTool',
          tool_name: tool,
          tool_input: { source: 'secrets/a.key', destination: 'public/a.key' },
        }),
      );
    for (const tool of ['mcp_filesystem_move_file', 'mcp__filesystem__move_file', 'filesystem__move_file', 'move_file'])
      expect(gemini(tool), tool).toMatchObject({
        paths: ['public/a.key', 'secrets/a.key'],
        moves: [{ from: 'secrets/a.key', to: 'public/a.key' }],
      });
    // A delete is no move: what it names under either key is a file it takes away, judged as written.
    const remove = gemini('mcp_files_remove_file');
    expect([remove.paths, remove.moves]).toEqual([['public/a.key', 'secrets/a.key'], undefined]);
  });

  it("knows a move, a copy and a delete by a name in camel or Pascal case too (moveFile, Cursor's Delete)", () => {
    const call = (tool: string, input: Record<string, unknown>) =>
      parseClientInput(JSON.stringify({ session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input }));
    const move = { source: 'secrets/a.key', destination: 'public/a.key' };
    for (const tool of ['mcp__fs__moveFile', 'mcp__fs__MoveFile', 'mcp__fs__renameFile', 'mcp_fs_moveFile'])
      expect(call(tool, move), tool).toMatchObject({
        paths: ['public/a.key', 'secrets/a.key'],
        moves: [{ from: 'secrets/a.key', to: 'public/a.key' }],
      });
    expect(call('mcp__fs__copyDirectory', { source: 'public', destination: 'secrets' })).toMatchObject({
      moves: [{ from: 'public', to: 'secrets', copy: true }],
    });
    for (const tool of ['mcp__fs__deleteDirectory', 'mcp__fs__RemoveFile', 'Delete'])
      expect(call(tool, { path: 'secrets' }), tool).toMatchObject({ paths: ['secrets'], removes: ['secrets'] });
  });
});

describe('a command an MCP tool runs', () => {
  it('is the command the command guards judge, also when the tool names a path beside it', () => {
    const mcp = (input: Record<string, unknown>) =>
      parseClientInput(
        JSON.stringify({ session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'mcp__runner__run', tool_input: input }),
      );
    expect(mcp({ command: 'terraform apply' }).command).toBe('terraform apply');
    expect(mcp({ command: 'terraform apply', path: 'infra' })).toMatchObject({ paths: ['infra'], command: 'terraform apply' });
  });
});

describe('apply_patch through the shell tool', () => {
  it("names the patch's files and added lines, as Codex applies it as its own patch, and keeps the command", () => {
    const patch = '*** Begin Patch\n*** Add File: secrets/a.key\n+k\n*** End Patch\n';
    const codex = (command: unknown, tool = 'shell') =>
      parseClientInput(
        JSON.stringify({
          session_id: 's',
          turn_id: 't',
          cwd: '/p',
          hook_event_name: 'PreToolUse',
          tool_name: tool,
          tool_input: { command },
        }),
      );
    for (const command of [
      ['apply_patch', patch],
      ['bash', '-lc', `apply_patch <<'EOF'\n${patch}EOF\n`],
    ])
      expect(codex(command), JSON.stringify(command)).toMatchObject({ paths: ['secrets/a.key'], texts: ['k'] });
    // `cd DIR && apply_patch`: Codex applies the patch in DIR, so its paths are DIR's.
    const inner = '*** Begin Patch\n*** Add File: a.key\n+k\n*** Update File: /abs/b\n+k\n*** End Patch\n';
    for (const cd of ['secrets', '"secrets"', "'secrets'", 'secrets/'])
      expect(codex(['bash', '-lc', `cd ${cd} && apply_patch <<'EOF'\n${inner}EOF\n`]), cd).toMatchObject({
        paths: ['secrets/a.key', '/abs/b'],
      });
    expect(codex(`cd sub && applypatch <<'EOF'\n${patch}EOF`)).toMatchObject({ paths: ['sub/secrets/a.key'] });
    // Another change of folder is the shell's, which runs Codex's apply_patch where it has gone: each folder it may be in.
    const key = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: k.pem\n+k\n*** End Patch\nEOF\n";
    for (const script of [
      `cd secrets; ${key}`,
      `cd secrets\n${key}`,
      `pushd secrets && ${key}`,
      `cd 'secrets' || exit; ${key}`,
      `cd -P -- secrets; ${key}`,
    ])
      expect(codex(script).paths, script).toEqual(['k.pem', 'secrets/k.pem']);
    // A folder's name in pieces, quoted and not, is one word to the shell: the folder it goes to is judged too.
    for (const cd of ['"sec"rets', "sec''rets", 'sec\\rets', '"sec\\"rets"'])
      for (const script of [`cd ${cd} && ${key}`, `cd ${cd}; ${key}`])
        expect(codex(['bash', '-lc', script]).paths, script).toContain(cd === '"sec\\"rets"' ? 'sec"rets/k.pem' : 'secrets/k.pem');
    expect(codex(['bash', '-lc', `cd "sec"rets && cd prod && ${key}`]).paths).toContain('secrets/prod/k.pem');
    // A backslash before a line break in double quotes is a line continuation: both go, as outside quotes.
    for (const cd of ['"sec\\\nrets"', 'sec\\\nrets'])
      expect(codex(['bash', '-lc', `cd ${cd} && ${key}`]).paths, cd).toContain('secrets/k.pem');
    expect(codex(`cd services && cd billing && ${key}`).paths).toEqual([
      'k.pem',
      'services/k.pem',
      'services/billing/k.pem',
      'billing/k.pem',
    ]);
    expect(codex(`cd /abs; cd ~ && ${key}`).paths).toEqual(['k.pem', '/abs/k.pem', '~/k.pem']);
    expect(codex(['apply_patch', patch], 'exec_command').command).toContain('apply_patch');
    // Another command that holds patch text writes nothing the hook can read: the command guards judge it.
    expect(codex(['cat', 'notes/apply_patch.md']).paths).toEqual([]);
    expect(codex(`grep -r "*** Begin Patch" docs`).paths).toEqual([]);
  });
});

describe("answers in each client's protocol", () => {
  it('deny: the JSON decision each client obeys, with the reason', () => {
    const claude = JSON.parse(clientAnswer('claude', 'deny', 'R', 'PreToolUse').stdout);
    expect(claude.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'R' });
    expect(JSON.parse(clientAnswer('codex', 'deny', 'R', 'PreToolUse').stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(clientAnswer('gemini', 'deny', 'R', 'BeforeTool').stdout)).toEqual({ decision: 'deny', reason: 'R' });
    expect(JSON.parse(clientAnswer('cursor', 'deny', 'R', 'beforeShellExecution').stdout)).toEqual({
      permission: 'deny',
      user_message: 'R',
      agent_message: 'R',
    });
  });

  it('ask where the client can ask (Claude Code, Cursor), deny where it cannot (Codex, Gemini)', () => {
    expect(JSON.parse(clientAnswer('claude', 'ask', 'R', 'PreToolUse').stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(JSON.parse(clientAnswer('cursor', 'ask', 'R', 'beforeShellExecution').stdout).permission).toBe('ask');
    expect(JSON.parse(clientAnswer('codex', 'ask', 'R', 'PreToolUse').stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(clientAnswer('gemini', 'ask', 'R', 'BeforeTool').stdout).decision).toBe('deny');
  });

  it('allow and no match: no output and exit 0, so the client decides (never a forced allow)', () => {
    for (const client of ['claude', 'codex', 'gemini', 'cursor'] as const) {
      for (const d of ['allow', 'none'] as const)
        expect(clientAnswer(client, d, 'R', 'PreToolUse')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    }
  });

  it('cannot decide: exit 2 with the reason on stderr (deny), or exit 0 (allow)', () => {
    expect(errorAnswer('bad input', 'deny')).toMatchObject({ stdout: '', exitCode: 2 });
    expect(errorAnswer('bad input', 'deny').stderr).toContain('bad input');
    expect(errorAnswer('bad input', 'allow')).toMatchObject({ stdout: '', exitCode: 0 });
  });
});

describe('a command whose folders the hook could not judge in its time', () => {
  const bash = (command: string) => JSON.stringify({ ...claudeBash, tool_input: { command } });
  it('is refused (guard.on_error answers it): over 1,000 changes of folder, a folder named past any system limit, a patch in too many folders', () => {
    expect(parseClientInput(bash(`${'cd a; '.repeat(1000)}make`)).cds).toHaveLength(1000);
    expect(() => parseClientInput(bash(`${'cd a; '.repeat(1001)}make`))).toThrow(UsageError);
    expect(() => parseClientInput(bash(`cd ${'d/'.repeat(2100)} && make`))).toThrow(UsageError);
    const patch = `*** Begin Patch\n${Array.from({ length: 2000 }, (_, i) => `*** Add File: f${i}\n+x\n`).join('')}*** End Patch`;
    const apply = (cds: number) =>
      JSON.stringify({ ...codexBash, tool_input: { command: `${'cd a; '.repeat(cds)}apply_patch <<'EOF'\n${patch}\nEOF` } });
    expect(parseClientInput(apply(20)).paths.length).toBeGreaterThan(2000);
    expect(() => parseClientInput(apply(60))).toThrow(UsageError);
  });

  it('names a patch file once however often its headers name it, in the order first named', () => {
    const patch = '*** Begin Patch\n*** Update File: b\n+1\n*** Add File: a\n+2\n*** Update File: b\n*** Move to: a\n*** End Patch';
    expect(patchParts(patch).paths).toEqual(['b', 'a']);
  });
});

describe('a file named under a key the hook has no list of (docs/guard.md, "write")', () => {
  // Each client's shape of an MCP tool's call: Claude Code's and Codex CLI's PreToolUse, Gemini CLI's BeforeTool (its
  // mcp_context), Cursor's beforeMCPExecution and preToolUse.
  const shapes = {
    claude: (ti: unknown) => ({ session_id: 's', cwd: '/p', hook_event_name: 'PreToolUse', tool_name: 'mcp__fs__put', tool_input: ti }),
    codex: (ti: unknown) => ({
      session_id: 's',
      turn_id: 't',
      cwd: '/p',
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__fs__put',
      tool_input: ti,
    }),
    gemini: (ti: unknown) => ({
      session_id: 's',
      cwd: '/p',
      hook_event_name: 'BeforeTool',
      tool_name: 'mcp_fs_put',
      mcp_context: { server_name: 'fs', tool_name: 'put' },
      tool_input: ti,
    }),
    cursorMcp: (ti: unknown) => ({ ...cursorCommon, hook_event_name: 'beforeMCPExecution', tool_name: 'put', tool_input: ti }),
    cursorTool: (ti: unknown) => ({ ...cursorCommon, hook_event_name: 'preToolUse', tool_name: 'put', tool_input: ti }),
  };

  it.each([
    ['a list of paths', { paths: ['a.txt', 'secrets/k'] }, ['a.txt', 'secrets/k']],
    ['a list of files, each with its path', { files: [{ path: 'secrets/k', content: 'x' }, { path: 'b' }] }, ['secrets/k', 'b']],
    ['edits, each naming its file', { edits: [{ file_path: 'secrets/k', new_string: 'x' }] }, ['secrets/k']],
    ['a target, an old and a new path', { target: 't', old_path: 'o', newPath: 'n', target_file: 'tf' }, ['t', 'o', 'n', 'tf']],
    ['nested however deep', { job: { steps: [{ output: { outputDir: 'secrets' } }] } }, ['secrets']],
    [
      'a list or an object under a known key',
      { path: ['secrets/a', 'b'], destination: { path: 'secrets/c' } },
      ['secrets/a', 'b', 'secrets/c'],
    ],
    ['a file: URL under uri', { uri: 'file:///p/secrets/k' }, ['file:///p/secrets/k']],
    ['no path: a URL of another scheme, a symbol, a query', { url: 'https://x/secrets/k', name_path: 'A/b', query: 'secrets/k' }, []],
  ])('%s: each one judged as a file the tool writes, from every client', (_name, toolInput, paths) => {
    for (const [client, shape] of Object.entries(shapes))
      expect(parseClientInput(JSON.stringify(shape(toolInput))).paths, client).toEqual(paths);
  });

  it("keeps a copy's source out (it is read), a move's in, and a delete's list of folders as removes", () => {
    const call = (tool: string, ti: unknown) => parseClientInput(JSON.stringify({ ...claudeWrite, tool_name: tool, tool_input: ti }));
    expect(call('mcp__fs__copy_file', { source: 'secrets/k', destination: 'pub/k' }).paths).toEqual(['pub/k']);
    expect(call('mcp__fs__move_file', { source: 'secrets/k', destination: 'pub/k' }).paths).toEqual(['pub/k', 'secrets/k']);
    expect(call('mcp__fs__delete_files', { paths: ['secrets', 'b'] })).toMatchObject({
      paths: ['secrets', 'b'],
      removes: ['secrets', 'b'],
    });
  });
});
