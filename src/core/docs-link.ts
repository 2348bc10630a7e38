// Where a message sends a user to read more: the package's documentation online, at the version that runs. A user's
// repository has no docs/ folder, and the npm package ships none.
import pkg from '../../package.json' with { type: 'json' };

/** The project's page without its fragment (package.json's `homepage`). */
const HOME = pkg.homepage.replace(/#.*$/s, '');

/**
 * The address of a page of the documentation (`actors.md`), at the tag of this version, and of one of its sections
 * when `section` is its heading's anchor (`installing-the-hook`).
 */
export function docsRef(page: string, section?: string): string {
  return `${HOME}/blob/v${pkg.version}/docs/${page}${section ? `#${section}` : ''}`;
}
