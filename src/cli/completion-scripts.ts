/**
 * The scripts `agents completion` prints, one per shell (docs/commands.md,
 * "Shell completion"). Each asks `agents --get-yargs-completions` for the
 * candidates of the word being typed, the program's name first, and falls back
 * to the shell's file names when none come (a path after `--store`).
 */

import { UsageError } from '../core/errors.ts';
import { programOnPath, runByNpm, sessionPath } from '../store/program-path.ts';
import { GLOBAL_OPTION_NAMES, globalTakesValue } from './registry.ts';

export type CompletionShell = 'bash' | 'zsh' | 'fish';

const SHELLS: readonly CompletionShell[] = ['bash', 'zsh', 'fish'];

/**
 * The shell `agents completion [SHELL]` is for, from the words after `completion` (`args`, before any `--`): the one
 * named, else the one `SHELL` names. Any other word, or an option that is not a global one, is refused rather than
 * ignored: `agents completion tcsh > file` would otherwise write bash's script there.
 */
export function completionShellOf(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CompletionShell {
  // The on/off ones also as `--no-…`; one that takes a value has no such form (`--no-store` is refused everywhere).
  const globals = new Set(
    GLOBAL_OPTION_NAMES.flatMap((name) => (globalTakesValue(`--${name}`) ? [`--${name}`] : [`--${name}`, `--no-${name}`])),
  );
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) {
      words.push(a);
      continue;
    }
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (!globals.has(name)) {
      throw new UsageError(
        `unknown option ${name} of completion`,
        (agents) => `\`${agents} completion [bash|zsh|fish]\` takes no options of its own; run it with --help for usage.`,
        { arguments: [a], suggestions: [] },
        'unknown-option',
      );
    }
    // The value of --store or --format, unless given with = or missing.
    if (globalTakesValue(name) && !a.includes('=') && !(args[i + 1] ?? '-').startsWith('-')) i++;
  }
  const [shell, ...rest] = words;
  if (shell === undefined) return completionShell(env);
  if (!SHELLS.includes(shell as CompletionShell) || rest.length > 0) {
    const wrong = SHELLS.includes(shell as CompletionShell) ? rest[0]! : shell;
    throw new UsageError(
      `unexpected argument "${wrong}": completion scripts are for bash, zsh and fish`,
      (agents) => `Run \`${agents} completion bash\` (or zsh, fish), or \`${agents} completion\` for the shell SHELL names.`,
      { arguments: [wrong], suggestions: [...SHELLS] },
      'unexpected-argument',
    );
  }
  return shell as CompletionShell;
}

/** The shell a run's `SHELL` names, as a user's login shell does; bash otherwise. */
function completionShell(env: Readonly<Record<string, string | undefined>>): CompletionShell {
  const shell = (env.SHELL ?? '').slice((env.SHELL ?? '').lastIndexOf('/') + 1);
  if (shell.includes('fish')) return 'fish';
  if (shell.includes('zsh')) return 'zsh';
  return 'bash';
}

// Each script names its shell to the call, whatever the login shell SHELL names: the candidates are written for it
// (zsh's \`--format:output format\` would be offered whole by bash).
// Each script sends the words up to the one being completed: those after the cursor (\`--format json\` when an option
// is added mid-line) would be read as the last word typed.
const BASH = (PROGRAM: string) => `###-begin-agents-completions-###
#
# agents command completion script
#
# Installation: agents completion >> ~/.bashrc
#    or agents completion >> ~/.bash_profile on OSX.
#
_agents_yargs_completions()
{
    local cur_word args type_list

    # the words up to the cursor; in the blank before a word, bash points at that word: a new, empty one is typed
    if [[ "\${COMP_LINE:0:COMP_POINT}" =~ [[:space:]]$ ]]; then
      cur_word=""
      args=("\${COMP_WORDS[@]:0:COMP_CWORD}" "")
    else
      cur_word="\${COMP_WORDS[COMP_CWORD]}"
      args=("\${COMP_WORDS[@]:0:COMP_CWORD+1}")
    fi

    # ask agents for the candidates; the awk quotes those holding spaces
    mapfile -t type_list < <(SHELL=bash ${PROGRAM} --get-yargs-completions "\${args[@]}")
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${type_list[@]}" )" -- "\${cur_word}" |
        awk '/ / { print "\\""$0"\\"" } /^[^ ]+$/ { print $0 }')

    # if no match was found, fall back to filename completion
    if [ \${#COMPREPLY[@]} -eq 0 ]; then
      COMPREPLY=()
    fi

    return 0
}
complete -o bashdefault -o default -F _agents_yargs_completions agents
###-end-agents-completions-###
`;

// zsh hands \`--store=DIR\` over as one word (bash splits it at the =): the file names are completed after the =.
// compdef is part of zsh's completion system, which a .zshrc that never runs compinit has not loaded.
const ZSH = (PROGRAM: string) => `#compdef agents
###-begin-agents-completions-###
#
# agents command completion script
#
# Installation: agents completion >> ~/.zshrc
#    or agents completion >> ~/.zprofile on OSX.
#
_agents_yargs_completions()
{
  local reply
  local si=$IFS
  IFS=$'\\n' reply=($(SHELL=zsh COMP_CWORD="$((CURRENT-1))" COMP_LINE="$BUFFER" COMP_POINT="$CURSOR" ${PROGRAM} --get-yargs-completions "\${(@)words[1,CURRENT]}"))
  IFS=$si
  if [[ \${#reply} -gt 0 ]]; then
    _describe 'values' reply
  else
    [[ $PREFIX == --*=* ]] && compset -P '*='
    _default
  fi
}
if [[ "\${zsh_eval_context[-1]}" == "loadautofunc" ]]; then
  _agents_yargs_completions "$@"
else
  (( $+functions[compdef] )) || { autoload -Uz compinit && compinit; }
  compdef _agents_yargs_completions agents
fi
###-end-agents-completions-###
`;

// fish gives the words before the cursor (program's name first) and the one being typed apart; an empty one is a word
// too (\`--format \` then Tab asks for the formats). File names are offered only when agents offers nothing.
const FISH = (PROGRAM: string) => `###-begin-agents-completions-###
#
# agents command completion script
#
# Installation: agents completion > ~/.config/fish/completions/agents.fish
#
function __agents_completions
    set -l current (commandline -ct)
    set -l found (SHELL=fish ${PROGRAM} --get-yargs-completions (commandline -opc) "$current")
    if set -q found[1]
        printf '%s\\n' $found
    else
        set -l option (string match -r -- '^--[^=]+=' "$current")
        __fish_complete_path (string replace -r -- '^--[^=]+=' '' "$current") | string replace -r -- '^' "$option"
    end
end
complete -c agents -f -a '(__agents_completions)'
###-end-agents-completions-###
`;

/**
 * The completion script for `shell`, asking `program` for the candidates: `agents`, or `npx --no-install agents` for
 * a run npx started where the user's shell finds no `agents` (see `completionProgram`).
 */
export function completionScript(shell: CompletionShell, program = 'agents'): string {
  return (shell === 'fish' ? FISH : shell === 'zsh' ? ZSH : BASH)(program);
}

/**
 * The command the script is to ask, the way the user started `agents completion`: run by npm (`npx agents`, an npm
 * script) where the shell's own PATH finds no `agents` (installed in the repository, in node_modules/.bin), a script
 * asking `agents` would complete nothing at every Tab, silently.
 */
export function completionProgram(env: Readonly<Record<string, string | undefined>>): string {
  if (!runByNpm(env) || programOnPath('agents', sessionPath(env), { pathext: env.PATHEXT }) !== undefined) return 'agents';
  return 'npx --no-install agents';
}

/** What `agents completion` says when its script asks `npx --no-install agents`, and how to have it ask another. */
export const COMPLETION_PROGRAM_NOTE =
  "the script completes lines starting with `agents` (an alias such as `alias agents='npx --no-install agents'`) " +
  "by asking `npx --no-install agents`, this repository's agents, as no `agents` is on PATH; to have it ask another " +
  'command, change `npx --no-install agents` in the script, or run `agents completion` where `agents` is on PATH.';
