import type { Plan, Scope, ScopedInvariant, Target } from '../../core/model.ts';
import type { TreeSource } from '../../store/tree-source.ts';
import type { ServiceDeps } from '../deps.ts';
import type { OptionWords } from '../option-words.ts';
import type { AddContext, ScopeInput, WaiverState } from './types.ts';

/**
 * What a use case under invariants/ is given: the store, and the methods of
 * InvariantService that it asks in turn. InvariantService implements it; the
 * use cases name this, not the class, so that they never import the facade
 * that imports them. The methods are documented on the class.
 */
export interface InvariantContext {
  readonly root: string;
  readonly source: TreeSource;
  readonly deps: ServiceDeps;
  /** What a refusal calls an option the caller gave (optionWords): the command line's flags, else the library's fields. @internal */
  readonly optionWords?: OptionWords | undefined;
  readPlan(idOrPrefix: string): Promise<Plan>;
  resolveId(prefix: string, options?: { inherited?: boolean }): Promise<{ id: string; path: string; scope: Scope }>;
  resolvePlanId(prefix: string): Promise<string>;
  resolveScope(input: ScopeInput | Scope): Promise<Scope>;
  projectNames(): Promise<string[]>;
  requireProject(project: string, options?: { writing?: boolean }): Promise<void>;
  checkNewProject(project: string, confirmed: boolean, doing?: string): Promise<string | undefined>;
  addContext(input: ScopeInput | Scope): Promise<AddContext>;
  inherited(): Promise<ScopedInvariant[]>;
  waiversOf(target: Target, listed?: readonly { path: string; type: string }[]): Promise<WaiverState[]>;
}
