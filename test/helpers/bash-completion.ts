import { type SpawnSyncReturns, spawnSync } from 'node:child_process';

/**
 * Runs bash's completion of `line` as bash's `complete -F` would: `setup` (lines that source the completion script),
 * the COMP_* variables of `words` (the line split as bash splits it), then `call` (the completion function with its
 * arguments, `_agents_yargs_completions agents` when not given); its output is COMPREPLY, one value a line.
 */
export function bashCompletion(o: {
  setup: string;
  line: string;
  words: readonly string[];
  call?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): SpawnSyncReturns<string> {
  const script = [
    o.setup,
    `COMP_WORDS=(${o.words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${o.words.length - 1}`,
    `COMP_LINE='${o.line}'`,
    `COMP_POINT=${o.line.length}`,
    o.call ?? '_agents_yargs_completions agents',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return spawnSync('bash', ['-c', script], { cwd: o.cwd, encoding: 'utf8', env: o.env });
}
