// A repository path named through a link (macOS's /tmp, a linked home folder): kept apart from link-paths.ts, which the
// guard hook's bundle holds, so that the hook does not load the store's readers (and their schema validators) with it.
import { repoRelative } from '../store/projects.ts';
import { physicalPath } from './link-paths.ts';

/**
 * `abs` relative to the repository top (store/projects.ts repoRelative), as named or, when that is outside it, as
 * its links lead: a path through a link to the repository (macOS's /tmp, a linked home folder) names a file of it,
 * as the guards judge it. Undefined when it leads outside too.
 */
export function repoPathOf(top: string, abs: string): string | undefined {
  return repoRelative(top, abs) ?? repoRelative(physicalPath(top), physicalPath(abs));
}
