// Where a repository is, found from the file system alone: the logic lives in
// src/git (the git runner needs it too); re-exported for the store's readers.
export {
  bareRepositoryAbove,
  commonGitDir,
  extendsCacheDir,
  gitDirFor,
  mayBeSparse,
  repoTop,
  storeFolderOf,
} from '../git/location.ts';
