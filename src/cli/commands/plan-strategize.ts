import { resolve } from 'node:path';
import { EXIT_CODES, missingValue, UsageError } from '../../core/errors.ts';
import { MAX_CONTEXT_BYTES } from '../../core/limits.ts';
import { ACTOR_KINDS, type ActorKind } from '../../core/records.ts';
import { readUtf8 } from '../../core/utf8.ts';
import { readRegularFile } from '../../store/read-file.ts';
import { commandActor, type Actor } from '../../enforce/actors.ts';
import { commandActorStartProblem } from '../../enforce/command-actor.ts';
import type { PreviewProblem } from '../../enforce/model-actors.ts';
import { interactiveActor } from '../interactive-actor.ts';
import { defineCommand } from '../command.ts';
import type { CliContext } from '../context.ts';
import { promptJson, promptText, strategizedJson, strategizedText } from '../../present/strategize.ts';
import { emit } from '../render.ts';
import { startProgress } from '../progress.ts';
import { abortOnStopSignals } from '../stop-signals.ts';
import { docsRef } from '../../core/docs-link.ts';

interface StrategizeArgs {
  id: string;
  actor?: ActorKind;
  context?: string;
  'show-prompt'?: boolean;
}

function readContext(ctx: CliContext, file: string): string {
  // An empty name (an unset variable) would resolve to the current folder, and be refused as "a folder".
  if (file.trim() === '')
    throw missingValue('--context is empty', 'Nothing was written. Give a readable text file with --context FILE.', 'context');
  const path = resolve(ctx.io.cwd, file);
  // A regular file (a link to one is fine: the user named it), checked before it is opened; never more than the limit read.
  const r = readRegularFile(path, MAX_CONTEXT_BYTES, { followLinks: true });
  if (!r.ok) {
    if (r.code === 'too-large')
      throw new UsageError(`the context file ${file} ${r.message} (1 MiB)`, 'Nothing was written. Summarise the plan context.');
    throw new UsageError(
      `cannot read the context file ${file}: it ${r.message}`,
      'Nothing was written. Give a readable text file with --context FILE.',
    );
  }
  const text = readUtf8(r.bytes, { dropBom: true });
  if (text.ok) return text.text;
  throw new UsageError(
    `the context file ${file} is not UTF-8 text (${file}:${text.line}:${text.col})`,
    'Nothing was written. Save it as UTF-8.',
  );
}

export default defineCommand<StrategizeArgs>({
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'plan id or unique prefix (4+ characters)' })
      .option('actor', {
        choices: [...ACTOR_KINDS],
        requiresArg: true,
        describe: 'who evaluates the invariants (default: reconciliation.actor in config.yaml)',
      })
      .option('context', { type: 'string', requiresArg: true, describe: 'a text file with the plan context, sent to the actor' })
      .option('show-prompt', {
        type: 'boolean',
        describe: 'print what the actor would be sent (the prompt, for agent and llm); send and write nothing',
      }),
  async run(argv, ctx) {
    const service = await ctx.plans();
    // The plan first: a mistyped id is said as such, not as an actor to configure or a terminal to find.
    const id = await service.resolvePlanId(String(argv.id));
    const config = await service.config({ actor: argv.actor ?? 'configured' });
    const kind = argv.actor ?? config.reconciliation.actor;
    const context = argv.context !== undefined ? readContext(ctx, String(argv.context)) : null;
    if (argv['show-prompt']) return showPrompt(ctx, service, id, kind, config.reconciliation, context);
    // Made with the run's signal: Ctrl-C, CI's cancel (SIGTERM) and a closed terminal (SIGHUP) stop the actor's
    // whole process group and write nothing. The interactive actor's screen handles them itself.
    let actorFor: (signal: AbortSignal | undefined) => Actor;
    if (kind === 'interactive') {
      if (!ctx.interactive) {
        throw new UsageError(
          'the interactive actor needs a terminal (stdin and stdout a TTY, TERM not dumb, not CI, no --no-input)',
          'Nothing was written. Use --actor command, or run it in a terminal.',
        );
      }
      const person = interactiveActor({
        stdin: ctx.io.stdin as NodeJS.ReadStream,
        stdout: ctx.io.stdout as NodeJS.WriteStream,
        color: ctx.color,
      });
      actorFor = () => person;
    } else if (kind === 'agent' || kind === 'llm') {
      // Loaded only here: no other command pays for the model actors.
      const { modelActorFromConfig } = await import('../../enforce/model-actors.ts');
      actorFor = (signal) => modelActorFromConfig(kind, config.reconciliation, { root: service.root, env: ctx.io.env, signal });
    } else {
      const command = config.reconciliation.command ?? [];
      const unset = noActorCommand(command);
      if (unset) throw unset;
      actorFor = (signal) =>
        commandActor({
          command,
          timeoutMs: config.reconciliation.timeout_ms,
          cwd: service.root,
          env: { ...ctx.io.env, AGENTS_STORE: service.root },
          signal,
        });
    }
    // On a terminal, a wait past a second shows the actor's time against its time-out (docs/commands.md, "Progress");
    // not for the interactive actor, which has the terminal itself.
    const progress = startProgress(ctx.io, { quiet: (ctx.quiet ?? false) || kind === 'interactive' });
    if (progress.enabled) {
      const started = Date.now();
      const limit = config.reconciliation.timeout_ms;
      progress.every(() => `plan strategize: waiting for the actor, ${seconds(Date.now() - started)} of its ${seconds(limit)} time-out`);
    }
    // The signal stops the wait for the plan's lock too, once the actor has answered: nothing is written then either.
    const strategize = (signal?: AbortSignal) => service.strategize(id, { actor: actorFor(signal), context, signal });
    let result: Awaited<ReturnType<typeof service.strategize>>;
    try {
      // A stop that comes as the run is written lets it be written whole, then ends the run as the signal asks.
      result =
        kind === 'interactive'
          ? await strategize()
          : await abortOnStopSignals(
              'the actor was stopped and nothing was written.',
              strategize,
              (done) => {
                const n = done.run.records.filter((r) => r.enforced).length;
                return `the run was recorded (${n} of ${done.run.records.length} invariants enforced).`;
              },
              // The actor's group is out of the terminal's reach: a second Ctrl-C ending the command at once would
              // leave it running. Its stop is bounded (SIGKILL a second after SIGTERM).
              { untilStopped: true },
            );
    } finally {
      progress.stop();
    }
    emit(ctx, strategizedJson(result), () => strategizedText(ctx.style, result, ctx.agentsCommand()));
    return result.ok ? EXIT_CODES.ok : EXIT_CODES.checkFailed;
  },
});

/** `--show-prompt`: what the actor would get, printed; nothing sent, nothing written. */
async function showPrompt(
  ctx: CliContext,
  service: Awaited<ReturnType<CliContext['plans']>>,
  id: string,
  kind: ActorKind,
  reconciliation: Awaited<ReturnType<typeof service.config>>['reconciliation'],
  context: string | null,
): Promise<number> {
  const request = await service.actorRequest(id, context);
  const { previewModelActor, previewProblem } = await import('../../enforce/model-actors.ts');
  // What a run would stop on is said, not left for the run to find: the preview still shows what would be sent.
  const warn = (problem: PreviewProblem | null) => {
    if (problem)
      ctx.notice(`warning: ${problem.message}; a run would stop here (exit 2, ${problem.code}). ${problem.hint ?? ''}`.trimEnd());
  };
  if (kind !== 'agent' && kind !== 'llm') {
    const command = reconciliation.command ?? [];
    let problem: PreviewProblem | null = null;
    if (kind === 'command') {
      // Checked as a run would find it, in the store folder with the run's environment (actor-not-started, ADR 0703).
      const refusal =
        noActorCommand(command) ??
        commandActorStartProblem({ command, cwd: service.root, env: { ...ctx.io.env, AGENTS_STORE: service.root } });
      problem = refusal ? previewProblem(refusal) : null;
    }
    warn(problem);
    emit(ctx, { actor: kind, request, problem }, () => JSON.stringify(request, null, 2));
    return EXIT_CODES.ok;
  }
  const preview = previewModelActor(kind, reconciliation, request, { root: service.root, env: ctx.io.env });
  warn(preview.problem);
  emit(ctx, promptJson(kind, preview), () => promptText(kind, preview, reconciliation.api_key_env));
  return EXIT_CODES.ok;
}

/** The command actor chosen with no program to run: refused by a run, warned of by `--show-prompt`. */
function noActorCommand(command: readonly string[]): UsageError | undefined {
  if (command.length > 0) return undefined;
  return new UsageError(
    'no actor command configured: config.yaml has no reconciliation.command',
    `Nothing was written. Choose who judges plans in config.yaml (${docsRef('actors.md')}): \`reconciliation: {actor: agent, agent: claude}\`, an llm endpoint, or \`command: [node, actors/my-actor.mjs]\` (argv, run in the store folder); or use --actor interactive.`,
  );
}

/** 12 s, 1 min 5 s: whole seconds. */
function seconds(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
