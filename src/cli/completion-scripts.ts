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

/** The shells `agents completion` prints a script for, as its argument names them. */
export const SHELLS: readonly CompletionShell[] = ['bash', 'zsh', 'fish'];

/**
 * The shell `agents completion [SHELL]` is for, from the words after `completion` (`args`, before any `--`, and
 * `operands`, those after it): the one named, else the one `SHELL` names. Any other word, or an option that is not a
 * global one, is refused rather than ignored: `agents completion tcsh > file` would otherwise write bash's script there.
 */
export function completionShellOf(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  operands: readonly string[] = [],
): CompletionShell {
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
  const [shell, ...rest] = [...words, ...operands];
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
// Each also completes agents run through a launcher (\`npx agents …\`, \`npm exec agents -- …\`, \`pnpm (exec) agents
// …\`, \`yarn agents …\`, \`bunx agents …\`), where no \`agents\` is on PATH to ask: such a line is asked of npx with
// --no-install (npm exec's too) or of pnpm exec, which never download, and yarn's and bunx's of node_modules/.bin/agents,
// which those would run (bunx downloads what it does not find; yarn prints lines of its own); any other line of a
// launcher keeps the completion it had.
const BASH = (PROGRAM: string) => `###-begin-agents-completions-###
#
# agents command completion script
#
# Installation: agents completion >> ~/.bashrc
#    or agents completion >> ~/.bash_profile on OSX.
#
# How to ask for the candidates of the words in args: sets program (the command to run) and rest (the words typed after
# agents' own name, the last being completed); fails for a line that runs another program (npx eslint), or agents
# through a launcher that would download it or print its own lines (bunx, yarn) where the repository has no
# node_modules/.bin/agents.
_agents_line()
{
    local launcher="\${args[0]##*/}" at=1 dashes=0 i
    program=(${PROGRAM})
    case "$launcher" in
      npx|npm|bunx)
        if [[ "$launcher" == npm ]]; then
          [[ "\${args[1]}" == exec || "\${args[1]}" == x ]] || return 1
          at=2
        fi
        packages=()
        # the launcher's options: the package named (-p NAME, --package=NAME, split at the = by bash) is named again,
        # --yes is not (a Tab never installs)
        while [[ "\${args[at]}" == -* && "\${args[at]}" != -- ]]; do
          case "\${args[at]}" in
            -p|--package)
              [[ "\${args[at+1]}" == = ]] && at=$((at+1))
              packages+=("--package=\${args[at+1]}")
              at=$((at+2)) ;;
            *) at=$((at+1)) ;;
          esac
        done
        # npm exec -- agents …: that -- ends npm's options
        [[ "$launcher" == npm && "\${args[at]}" == -- ]] && { at=$((at+1)); dashes=1; }
        [[ "\${args[at]}" == agents || "\${args[at]}" == agents-invariants ]] || return 1
        if [[ "$launcher" == bunx ]]; then
          _agents_local_bin || return 1
        else
          program=(npx --no-install "\${packages[@]}" "\${args[at]}")
        fi ;;
      pnpm)
        # pnpm exec agents, or pnpm agents, which pnpm runs as pnpm exec
        [[ "\${args[1]}" == exec ]] && at=2
        [[ "\${args[at]}" == agents ]] || return 1
        program=(pnpm exec agents) ;;
      yarn)
        [[ "\${args[1]}" == agents ]] && _agents_local_bin || return 1 ;;
      *)
        at=0
        # agents named by its path (./node_modules/.bin/agents, ~/bin/agents): that one is asked
        [[ "\${args[0]}" == */* ]] && program=("\${args[0]/#\\~\\//$HOME/}") ;;
    esac
    rest=("\${args[@]:at+1}")
    # npm exec agents -- …: the first -- after npm's words is npm's, not handed to agents (one being typed is a word)
    if [[ "$launcher" == npm && $dashes == 0 ]]; then
      for (( i = 0; i < \${#rest[@]} - 1; i++ )); do
        [[ "\${rest[i]}" == -- ]] && { rest=("\${rest[@]:0:i}" "\${rest[@]:i+1}"); break; }
      done
    fi
    # the program's name is typed whole: a word after it is being completed
    (( \${#rest[@]} > 0 ))
}

# The agents bunx and yarn would run, found as they find it: node_modules/.bin/agents of the current folder or one
# above. Asked itself: bunx downloads a package it does not find, and yarn prints lines of its own.
_agents_local_bin()
{
    local dir="$PWD"
    while :; do
      [[ -x "$dir/node_modules/.bin/agents" ]] && { program=("$dir/node_modules/.bin/agents"); return 0; }
      [[ -z "$dir" || "$dir" == / ]] && return 1
      dir="\${dir%/*}"
    done
}

_agents_yargs_completions()
{
    local cur_word args type_list program packages rest previous

    # the words up to the cursor; in the blank before a word, bash points at that word: a new, empty one is typed
    if [[ "\${COMP_LINE:0:COMP_POINT}" =~ [[:space:]]$ ]]; then
      cur_word=""
      args=("\${COMP_WORDS[@]:0:COMP_CWORD}" "")
    else
      cur_word="\${COMP_WORDS[COMP_CWORD]}"
      args=("\${COMP_WORDS[@]:0:COMP_CWORD+1}")
      # a word break typed last (--project=, policy:): bash completes the empty word after it
      [[ "$cur_word" == = || "$cur_word" == : ]] && cur_word=""
    fi

    # a launcher's line that runs another program: the completion it had, else the shell's file names
    if ! _agents_line; then
      COMPREPLY=()
      previous="_agents_previous_\${1##*/}"
      [[ -n "\${!previous}" ]] && "\${!previous}" "$@"
      return 0
    fi

    # ask agents for the candidates, its errors (npx's where agents is not installed) kept off the line being typed;
    # the awk quotes those holding spaces
    mapfile -t type_list < <(SHELL=bash "\${program[@]}" --get-yargs-completions agents "\${rest[@]}" 2>/dev/null)
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${type_list[@]}" )" -- "\${cur_word}" |
        awk '/ / { print "\\""$0"\\"" } /^[^ ]+$/ { print $0 }')

    # if no match was found, fall back to filename completion
    if [ \${#COMPREPLY[@]} -eq 0 ]; then
      COMPREPLY=()
    fi

    return 0
}
complete -o bashdefault -o default -F _agents_yargs_completions agents
# the launchers keep the completion function they had for their other lines (sourced again, this one is not kept)
for _agents_launcher in npx npm pnpm yarn bunx; do
  if [[ "$(complete -p "$_agents_launcher" 2>/dev/null)" =~ -F\\ ([^ ]+) && "\${BASH_REMATCH[1]}" != _agents_yargs_completions ]]; then
    printf -v "_agents_previous_$_agents_launcher" '%s' "\${BASH_REMATCH[1]}"
  fi
  complete -o bashdefault -o default -F _agents_yargs_completions "$_agents_launcher"
done
unset _agents_launcher
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
# The agents bunx and yarn would run, found as they find it: node_modules/.bin/agents of the current folder or one
# above. Asked itself: bunx downloads a package it does not find, and yarn prints lines of its own.
_agents_local_bin()
{
  local dir=$PWD
  while true; do
    [[ -x $dir/node_modules/.bin/agents ]] && { program=($dir/node_modules/.bin/agents); return 0 }
    [[ -z $dir || $dir == / ]] && return 1
    dir=\${dir%/*}
  done
}
_agents_yargs_completions()
{
  local reply at=1 dashes=0 i launcher=\${words[1]:t} previous
  local -a program=(${PROGRAM}) packages rest
  # agents run through npx, npm exec, pnpm (exec), bunx or yarn: asked of the same launcher (bunx's and yarn's agents
  # of node_modules/.bin itself); a launcher's line that runs another program gets the completion it had, else the
  # shell's file names
  case $launcher in
    npx|npm|bunx)
      at=2
      if [[ $launcher == npm ]]; then
        [[ \${words[2]} == exec || \${words[2]} == x ]] && at=3 || at=0
      fi
      # the launcher's options: the package named (-p NAME, --package=NAME) is named again, --yes is not (a Tab never
      # installs)
      while (( at )) && [[ "\${words[at]}" == -* && "\${words[at]}" != -- ]]; do
        case "\${words[at]}" in
          -p|--package) packages+=("--package=\${words[at+1]}"); at=$((at+2)) ;;
          --package=*) packages+=("\${words[at]}"); at=$((at+1)) ;;
          *) at=$((at+1)) ;;
        esac
      done
      # npm exec -- agents …: that -- ends npm's options
      [[ $launcher == npm && "\${words[at]}" == -- ]] && { at=$((at+1)); dashes=1 }
      if (( at )) && [[ ( "\${words[at]}" == agents || "\${words[at]}" == agents-invariants ) && at -lt CURRENT ]]; then
        if [[ $launcher == bunx ]]; then
          _agents_local_bin || at=0
        else
          program=(npx --no-install "\${packages[@]}" "\${words[at]}")
        fi
      else
        at=0
      fi ;;
    pnpm)
      # pnpm exec agents, or pnpm agents, which pnpm runs as pnpm exec
      at=2
      [[ \${words[2]} == exec ]] && at=3
      if [[ \${words[at]} == agents && at -lt CURRENT ]]; then
        program=(pnpm exec agents)
      else
        at=0
      fi ;;
    yarn)
      at=2
      [[ \${words[2]} == agents && CURRENT -gt 2 ]] && _agents_local_bin || at=0 ;;
    *)
      # agents named by its path (./node_modules/.bin/agents, ~/bin/agents): that one is asked
      [[ "\${words[1]}" == */* ]] && program=("\${words[1]/#\\~\\//$HOME/}") ;;
  esac
  if (( at == 0 )); then
    previous=\${_agents_previous[$launcher]}
    if [[ -n $previous ]]; then "$previous" "$@"; else _default; fi
    return
  fi
  rest=("\${(@)words[at+1,CURRENT]}")
  # npm exec agents -- …: the first -- after npm's words is npm's, not handed to agents (one being typed is a word)
  if [[ $launcher == npm && $dashes == 0 ]]; then
    i=\${rest[(i)--]}
    (( i < \${#rest} )) && rest[i]=()
  fi
  local si=$IFS
  # its errors (npx's where agents is not installed) kept off the line being typed
  IFS=$'\\n' reply=($(SHELL=zsh "\${program[@]}" --get-yargs-completions agents "\${(@)rest}" 2>/dev/null))
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
  # the launchers keep the completion they had for their other lines (sourced again, this one is not kept)
  typeset -gA _agents_previous
  for _agents_launcher in npx npm pnpm yarn bunx; do
    [[ -n "\${_comps[$_agents_launcher]}" && "\${_comps[$_agents_launcher]}" != _agents_yargs_completions ]] &&
      _agents_previous[$_agents_launcher]=\${_comps[$_agents_launcher]}
    compdef _agents_yargs_completions $_agents_launcher
  done
  unset _agents_launcher
fi
###-end-agents-completions-###
`;

// fish gives the words before the cursor (program's name first) and the one being typed apart; an empty one is a word
// too (\`--format \` then Tab asks for the formats). File names are offered only when agents offers nothing.
const FISH = (PROGRAM: string) => `###-begin-agents-completions-###
#
# agents command completion script
#
# Installation: agents completion > ~/.config/fish/conf.d/agents.fish
#
# The command to ask for the line's candidates, one word a line after their count, then the words typed after agents'
# own name; fails for a launcher's line that runs another program (npx eslint), left to the completion it has, or
# agents through bunx or yarn where the repository has no node_modules/.bin/agents.
function __agents_line
    set -l words (commandline -opc)
    set -l i 1
    set -l dashes 0
    set -l program ${PROGRAM}
    set -l launcher (string replace -r -- '.*/' '' "$words[1]")
    switch $launcher
        case npx npm bunx
            set i 2
            if test $launcher = npm
                contains -- "$words[2]" exec x; or return 1
                set i 3
            end
            # the launcher's options: the package named (-p NAME, --package=NAME) is named again, --yes is not (a Tab
            # never installs)
            set -l packages
            while string match -q -- '-*' "$words[$i]"; and test "$words[$i]" != --
                switch "$words[$i]"
                    case -p --package
                        set i (math $i + 1)
                        set -a packages "--package=$words[$i]"
                    case '--package=*'
                        set -a packages "$words[$i]"
                end
                set i (math $i + 1)
            end
            # npm exec -- agents …: that -- ends npm's options
            if test $launcher = npm -a "$words[$i]" = --
                set i (math $i + 1)
                set dashes 1
            end
            contains -- "$words[$i]" agents agents-invariants; or return 1
            if test $launcher = bunx
                set program (__agents_local_bin); or return 1
            else
                set program npx --no-install $packages $words[$i]
            end
        case pnpm
            # pnpm exec agents, or pnpm agents, which pnpm runs as pnpm exec
            set i 2
            test "$words[2]" = exec; and set i 3
            test "$words[$i]" = agents; or return 1
            set program pnpm exec agents
        case yarn
            set i 2
            test "$words[2]" = agents; or return 1
            set program (__agents_local_bin); or return 1
        case '*'
            # agents named by its path (./node_modules/.bin/agents, ~/bin/agents): that one is asked
            string match -q -- '*/*' "$words[1]"; and set program (string replace -r -- '^~/' "$HOME/" "$words[1]")
    end
    set -q words[$i]; or return 1
    set -l rest $words[(math $i + 1)..-1]
    # npm exec agents -- …: the first -- after npm's words is npm's, not handed to agents
    if test $launcher = npm -a $dashes = 0
        set -l at (contains -i -- -- $rest); and set -e rest[$at]
    end
    printf '%s\\n' (count $program) $program $rest
end

# The agents bunx and yarn would run, found as they find it: node_modules/.bin/agents of the current folder or one
# above. Asked itself: bunx downloads a package it does not find, and yarn prints lines of its own.
function __agents_local_bin
    set -l dir $PWD
    while true
        if test -x "$dir/node_modules/.bin/agents"
            echo "$dir/node_modules/.bin/agents"
            return 0
        end
        test -z "$dir" -o "$dir" = /; and return 1
        set dir (string replace -r -- '/[^/]*$' '' "$dir")
    end
end

function __agents_completions
    set -l current (commandline -ct)
    set -l line (__agents_line)
    set -l program $line[2..(math $line[1] + 1)]
    # its errors (npx's where agents is not installed, fish's own where no such command is) kept off the line typed
    set -l found
    if command -q -- $program[1]
        set found (SHELL=fish $program --get-yargs-completions agents $line[(math $line[1] + 2)..-1] "$current" 2>/dev/null)
    end
    if set -q found[1]
        printf '%s\\n' $found
    else
        set -l option (string match -r -- '^--[^=]+=' "$current")
        __fish_complete_path (string replace -r -- '^--[^=]+=' '' "$current") | string replace -r -- '^' "$option"
    end
end
complete -c agents -f -a '(__agents_completions)'
complete -p '*/agents' -f -a '(__agents_completions)'
complete -c npx -n '__agents_line >/dev/null' -f -a '(__agents_completions)'
complete -c npm -n '__agents_line >/dev/null' -f -a '(__agents_completions)'
complete -c pnpm -n '__agents_line >/dev/null' -f -a '(__agents_completions)'
complete -c yarn -n '__agents_line >/dev/null' -f -a '(__agents_completions)'
complete -c bunx -n '__agents_line >/dev/null' -f -a '(__agents_completions)'
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
  'the script completes lines starting with `npx agents`, and those starting with `agents` (an alias such as ' +
  "`alias agents='npx --no-install agents'`) by asking `npx --no-install agents`, this repository's agents, as no " +
  '`agents` is on PATH; to have it ask another command, change `npx --no-install agents` in the script, or run ' +
  '`agents completion` where `agents` is on PATH.';
