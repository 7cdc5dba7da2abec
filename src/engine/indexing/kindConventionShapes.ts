// The shape of a repository's conventions as the kind model reads them: what kindConventions.ts
// builds and kindFeatures.ts weighs. A leaf of its own, so the builder (which tokenises headings as
// the features do) and the features do not import each other.

export interface FolderShape {
  files: number;
  numbered: number;
  prose: number;
  subfolders: number;
  /** The folder holds a README and an index page and nothing else (a folder-per-page site). */
  hasIndexTwin: boolean;
}

export interface FolderConventions {
  folders: Map<string, FolderShape>;
  /** Navigation section words per page path. */
  nav: Map<string, string[]>;
}
