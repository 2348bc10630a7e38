import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.ts';
import type { ScopeInput } from '../service/invariant-service.ts';

export interface ScopeArgs {
  global?: boolean;
  project?: string;
  plan?: string;
  action?: string;
}

export function scopeOptions(y: Argv, verb: string): Argv {
  return y
    .option('global', { type: 'boolean', describe: `${verb} the global scope` })
    .option('project', { type: 'string', describe: `${verb} project P's scope`, requiresArg: true })
    .option('plan', { type: 'string', describe: `${verb} plan ID's scope (an id or a unique prefix of one)`, requiresArg: true })
    .option('action', { type: 'string', describe: `${verb} action template NS/NAME`, requiresArg: true });
}

/** The one scope the flags name; `required` refuses none. Two or more is always a usage error. */
export function scopeFromArgs(argv: ScopeArgs, required: boolean): ScopeInput | undefined {
  const given: ScopeInput[] = [];
  const names: string[] = [];
  if (argv.global) {
    given.push({ global: true });
    names.push('--global');
  }
  for (const key of ['project', 'plan', 'action'] as const) {
    const value = argv[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) throw new UsageError(`--${key} was given more than once`, `Give one --${key}.`);
    given.push({ [key]: String(value) } as ScopeInput);
    names.push(`--${key}`);
  }
  if (given.length > 1) {
    throw new UsageError(`give exactly one scope, not ${names.join(' and ')}`, 'Choose one of --global, --project P, --plan ID, --action NS/NAME.');
  }
  if (given.length === 0 && required) {
    throw new UsageError('no scope given', 'Choose one of --global, --project P, --plan ID, --action NS/NAME.');
  }
  return given[0];
}

