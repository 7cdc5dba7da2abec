// Drift's vocabulary: the states a reference can be in, the findings doors show, and the small
// synchronous port through which the engine reads the workspace (the host implements it on disk).

import { MAX_INDEXED_BYTES } from '../indexing/discovery';
import { isSecretFile } from '../indexing/secretFiles';

// `ambiguous`: the reference names something several files match (a bare file name, a symbol defined in many
// places); it is not broken, and it is not watched until it is written so that one thing matches. It is
// no finding: kept for the explain view (asked for by state), never listed by default (NOT_FINDINGS).
export const DRIFT_STATES = ['current', 'relocated', 'changed', 'gone', 'broken', 'ambiguous'] as const;
export type DriftState = (typeof DRIFT_STATES)[number];
/** States that are no warning: a list, a panel or a view shows every other state. */
export const NOT_FINDINGS: readonly DriftState[] = ['current', 'ambiguous'];

/** How a reference was written where it was found. */
export type ReferenceForm =
  | 'path' // a path in a code span or code block
  | 'link' // a markdown link to a relative or root path
  | 'url' // a same-repository URL (GitHub blob/tree)
  | 'site' // a URL of the repository's own published docs site (siteUrls.ts)
  | 'embed' // a file a doc tool embeds (mdox, embedmd), whole or a range of its lines
  | 'published' // a link to a published page whose source has another extension
  | 'index' // an extensionless link to a folder's index page
  | 'heading' // a link to a heading anchor
  | 'filename' // a bare file name
  | 'directory' // a bare directory name
  | 'symbol' // a function, class, key, Terraform block or resource name
  | 'flag' // a command-line flag
  | 'role' // an Ansible role named in prose (`nodejs` role): its tasks/main.yml
  | 'variable' // an Ansible variable a task or template uses (`{{ name }}`), while something declares it
  | 'anchor' // a memory's anchor
  | 'memory_link'; // a memory's link

/**
 * What a resolved reference points at; the fingerprint covers exactly this. `mention`: the lines of a
 * file beside the document that use a name nothing defines (mention.ts); `pattern`: a path with
 * placeholders, which holds while a file matches it (patterns.ts); `declared`: an Ansible variable, which holds
 * while any declaration defines it (ansibleVars.ts).
 */
export type TargetKind = 'file' | 'dir' | 'symbol' | 'heading' | 'lines' | 'mention' | 'pattern' | 'declared' | 'none';

export interface DriftFinding {
  id: string;
  source: { kind: 'memory' | 'doc'; key?: string; path?: string; line?: number };
  reference: { raw: string; form: string; target_path: string | null; symbol?: string | null };
  state: DriftState;
  evidence: { old_path?: string; new_path?: string; detail: string };
  detected_at: string;
  /**
   * Broken when Lore first saw it, in a document nobody had written since: breakage from before Lore,
   * shown apart from drift caused since (absent: drift caused since Lore started).
   */
  already_broken?: boolean;
}

/** The drift flags a recall or get result carries for a record whose references moved on. */
export interface DriftFlag {
  state: DriftState;
  reference: string;
  detail: string;
}

export interface DriftScanResult {
  references: number;
  findings: DriftFinding[];
  by_state: Record<DriftState, number>;
}

export interface FileStat {
  size: number;
  mtimeMs: number;
}

/**
 * The workspace as drift reads it: every text file a reference may name (code included, not only
 * what the index covers), synchronous because checks run inside a save and a recall.
 */
/**
 * Whether drift reads a file's text at all (WorkspaceReader.read): never a secret-bearing file's, never one past the
 * index's default cap. The disk reader applies it, and a text the index hands over is taken only where it holds.
 */
export function driftReadsText(path: string, bytes: number): boolean {
  return bytes <= MAX_INDEXED_BYTES && !isSecretFile(path);
}

export interface WorkspaceReader {
  /** Workspace-relative paths (with `/`) of the files drift may look at. */
  list(): Array<{ path: string; size: number; mtimeMs: number }>;
  stat(path: string): FileStat | null;
  /** The file's text; null when it is missing, unreadable, binary or too large to read as text. */
  read(path: string): string | null;
  /** A fingerprint of the file's bytes, for files `read` gives no text for (images, large files); null when missing. */
  digest(path: string): string | null;
  /** Locates symbols by a real parser where it has a grammar (finders.ts); without one, by patterns only. */
  readonly parser?: SymbolParser;
}

/** A declaration a parser found: its own text is `text.slice(from, to)` (UTF-16 offsets). */
export interface ParsedDeclaration {
  /** The bare name, or a qualified one for a member (`Queue.enqueue`). */
  name: string;
  from: number;
  to: number;
  /** 0-based lines, inclusive. */
  start: number;
  end: number;
  kind: 'function' | 'type' | 'variable';
  /** Declared at the top of the file (exported or not), or inside a class-like body. */
  scope: 'module' | 'member';
}

/**
 * The host's parser, synchronous once loaded: it reports which finder would parse a path now
 * (`tree-sitter:typescript`), or null when it has no grammar for it or has not loaded it yet.
 */
export interface SymbolParser {
  /** Whether loading has finished (with or without grammars): until then finderFor answers null. */
  ready(): boolean;
  finderFor(path: string): string | null;
  /** Declarations in `text`; only asked when finderFor(path) is not null. */
  declarations(path: string, text: string): ParsedDeclaration[];
}
