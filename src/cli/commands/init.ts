import { join } from 'node:path';
import { EXIT_CODES, UsageError } from '../../core/errors.ts';
import { initTarget } from '../../store/discover.ts';
import { planPreCommitHook, writePreCommitHook } from '../../store/hooks.ts';
import { initStore, initTargetState, writeSchemas } from '../../store/init.ts';
import { refuseUncheckedSubmodule } from '../../store/unchecked-submodule.ts';
import { type ActorFlags, askActor, choiceFromFlags } from '../actor-options.ts';
import { defineCommand } from '../command.ts';
import { initJson, initText, schemasRefreshedJson, schemasRefreshedText } from '../../present/init.ts';
import { emit } from '../render.ts';
import { ignoredByGit } from '../ignored-by-git.ts';
import { docsRef } from '../../core/docs-link.ts';
import { AGENT_NAMES, PROVIDERS } from '../../core/actor-choice.ts';

/** The flags that choose the actor of the store init makes (docs/actors.md). */
const ACTOR_FLAGS = ['actor', 'agent', 'provider', 'model', 'base-url', 'api-key-env'] as const;

interface InitArgs extends ActorFlags {
  hooks?: boolean;
  'export-check'?: boolean;
  schemas?: boolean;
}

export default defineCommand<InitArgs>({
  builder: (y) =>
    y
      .option('hooks', {
        type: 'boolean',
        describe: 'also install a git pre-commit hook running `agents validate --staged` (in an existing store: only the hook)',
      })
      .option('export-check', {
        type: 'boolean',
        describe:
          'with --hooks: the hook also runs `agents export --check` (the exported instruction files are up to date); an installed hook keeps what it has unless given',
      })
      .option('schemas', {
        type: 'boolean',
        describe: "refresh the store's copies of the JSON Schemas (schemas/) from this version of agents",
      })
      .option('actor', {
        choices: ['agent', 'llm', 'command', 'interactive', 'none'],
        requiresArg: true,
        describe: 'who judges plans (see Actors below); asked in a terminal when not given. command: the example actor',
      })
      // The page's address goes below the options, on a line of its own: in an option's column, --help breaks it in two.
      .epilog(`Actors: ${docsRef('actors.md')}`)
      .option('agent', { choices: [...AGENT_NAMES], requiresArg: true, describe: 'with --actor agent: the agent CLI' })
      .option('provider', { choices: [...PROVIDERS], requiresArg: true, describe: "with --actor llm: the endpoint's API" })
      .option('model', { type: 'string', requiresArg: true, describe: 'with --actor llm or agent: the model' })
      .option('base-url', { type: 'string', requiresArg: true, describe: 'with --actor llm: the endpoint, e.g. http://localhost:11434/v1' })
      .option('api-key-env', {
        type: 'string',
        requiresArg: true,
        describe: 'with --actor llm: the NAME of the variable holding the key (default OPENAI_API_KEY or ANTHROPIC_API_KEY)',
      })
      // --schemas only refreshes the schemas: a flag of another mode with it would be dropped without a word.
      .conflicts('schemas', ['hooks', 'export-check', ...ACTOR_FLAGS]),
  async run(argv, ctx) {
    const root = initTarget({ store: ctx.store, env: ctx.io.env, cwd: ctx.io.cwd });
    // What the folder holds decides every mode, and is refused (a file, another tool's folder) before any writes.
    const state = initTargetState(root);
    if (argv.schemas) {
      if (state !== 'store')
        throw new UsageError(`no store at ${root}`, `Create it with \`${ctx.agentsCommand()} init\` (which copies the schemas too).`);
      const written = writeSchemas(root, `${ctx.agentsCommand()} init --schemas`);
      emit(ctx, schemasRefreshedJson(root, written), () => schemasRefreshedText(ctx.style, root, written));
      return EXIT_CODES.ok;
    }
    if (argv['export-check'] && !argv.hooks)
      throw new UsageError('--export-check goes with --hooks', `Run \`${ctx.agentsCommand()} init --hooks --export-check\`.`);
    const actorFlag = ACTOR_FLAGS.find((k) => argv[k] !== undefined);
    if (state === 'store' && actorFlag !== undefined)
      throw new UsageError(
        `a store already exists at ${root}: --${actorFlag} chooses the actor of a new store`,
        `Nothing was changed. Change the store's actor in ${join(root, 'config.yaml')} (reconciliation, ${docsRef('actors.md')})${argv.hooks ? `; \`${ctx.agentsCommand()} init --hooks\` alone installs the hook` : ''}.`,
        { store: root, option: actorFlag },
      );
    // A store git tracks there that a sparse checkout leaves out is the repository's store, not a place for a second one.
    if (state !== 'store') await (await import('../../store/sparse-store.ts')).refuseSparseStore(root);
    // So is a submodule not checked out: a store made in its folder would be in no repository git sees, and the hook
    // of one an older version made there would check a store no commit holds.
    refuseUncheckedSubmodule(root, state === 'store' ? 'open' : 'create');
    // Every refusal of the hook (outside the repository, another tool's hook, a folder that cannot be written) comes
    // before the store is made: nothing is written then.
    const hookPlan = argv.hooks ? await planPreCommitHook(root, argv['export-check']) : undefined;
    let actor = choiceFromFlags(argv);
    // With --hooks an existing store gets only the hook; without, initStore refuses it.
    const creating = !(argv.hooks && state === 'store');
    if (creating && state !== 'store' && argv.actor === undefined && ctx.interactive) actor = await askActor(ctx.io);
    const made = creating ? initStore(root, actor) : [];
    const hook = hookPlan ? writePreCommitHook(hookPlan) : undefined;
    // Offered, not imposed: the hook checks the exported files once the store says which it exports.
    const exportCheck = hookPlan?.exportCheck ?? false;
    const offer = hook && !exportCheck && argv['export-check'] === undefined && (await exportsConfigured(root));
    const ignored = made.length > 0 ? await ignoredByGit(root, made) : undefined;
    const instructions = made.length > 0 ? await instructionFiles(root) : [];
    if (ignored)
      ctx.notice(
        ignored.path.endsWith('/')
          ? `git ignores ${ignored.path} (${ignored.rule}): the store will not be committed; remove that rule to keep it in git`
          : `git ignores ${ignored.path} (${ignored.rule})${ignored.more > 0 ? ` and ${ignored.more} more of the store's files` : ''}: a clone will not have ${ignored.more > 0 ? 'them' : 'it'}; remove that rule, or add \`!${ignored.path}\` after it, to keep it in git`,
      );
    const done = {
      store: root,
      made,
      creating,
      actor,
      hook,
      exportCheck,
      offer: Boolean(offer),
      ignored,
      instructions,
      agents: ctx.agentsCommand(),
    };
    emit(ctx, initJson(done), () => initText(ctx.style, done));
    return EXIT_CODES.ok;
  },
});

/**
 * The instruction files (AGENTS.md, CLAUDE.md, Cursor rules…) of the repository a new store is made in, as import
 * finds them: their rules are the first invariants to bring in. None outside git, where import lists no files either.
 */
async function instructionFiles(root: string): Promise<string[]> {
  const [{ lsRepoFiles }, { GitError }, { instructionKind }] = await Promise.all([
    import('../../git/file-listing.ts'),
    import('../../git/repo.ts'),
    import('../../core/import-sources.ts'),
  ]);
  try {
    return (await lsRepoFiles(root, true)).filter((f) => instructionKind(f) !== undefined).sort();
  } catch (error) {
    if (error instanceof GitError) return [];
    throw error;
  }
}

/** Whether the store's config.yaml lists export targets (a broken config offers nothing). */
async function exportsConfigured(root: string): Promise<boolean> {
  const { readConfig } = await import('../../store/config.ts');
  const { WorkingTreeSource } = await import('../../store/tree-source.ts');
  try {
    const { config } = await readConfig(new WorkingTreeSource(root));
    return (config.export.targets ?? []).length > 0;
  } catch {
    return false;
  }
}
