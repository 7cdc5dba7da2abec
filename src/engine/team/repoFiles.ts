// The port through which the engine reads and writes files in the repository when a record is
// promoted there. The host implements it over the workspace folder (refusing paths outside it);
// tests use a folder of their own.

export interface RepoFiles {
  /** Text of a workspace-relative file, or null when there is none. */
  read(path: string): string | null;
  /** Names in a workspace-relative folder, or null when there is no such folder. */
  list(dir: string): string[] | null;
  /** Writes a file, creating its folders. Without `overwrite`, an existing file is an error. */
  write(path: string, content: string, options: { overwrite: boolean }): void;
}
