// What the index reads: allowlist globs for documents and infrastructure, default excludes
// (dependencies, build output, lock files, binaries), the secret-bearing files, a size cap. Settings
// may replace either list. The host walks the disk; this decides.

import picomatch from 'picomatch';
import { isRepoRecordPath } from '../model/repoRecordFiles';
import { isSecretFile } from './secretFiles';
import { baseName } from '../text/paths';

export const MAX_INDEXED_BYTES = 1024 * 1024;

export const DEFAULT_INCLUDE: readonly string[] = [
  '**/*.md',
  '**/*.mdx',
  '**/*.markdown',
  '**/*.html.md.erb',
  '**/*.rst',
  '**/*.adoc',
  '**/*.asciidoc',
  '**/README',
  '**/README.*',
  '**/CHANGELOG*',
  '**/HISTORY*',
  '**/NOTES.txt',
  '**/*.tf',
  '**/*.hcl',
  '**/*.yaml',
  '**/*.yml',
  '**/*.tpl',
  '**/Dockerfile',
  '**/Dockerfile.*',
  '**/*.dockerfile',
  '**/Containerfile',
  '**/Jenkinsfile',
  // What infrastructure engineers search for besides documents: scripts, build files, tool config, owners.
  '**/*.sh',
  '**/*.bash',
  '**/*.py',
  '**/*.go',
  '**/*.rb',
  '**/Makefile',
  '**/GNUmakefile',
  '**/*.mk',
  '**/Vagrantfile',
  '**/Rakefile',
  '**/*.json',
  '**/*.ini',
  '**/*.toml',
  '**/*.cfg',
  '**/*.conf',
  '**/*.j2',
  '**/CODEOWNERS',
  '**/inventory',
  '**/hosts',
  // Scripts without an extension where repositories keep them (a binary there is read as binary and
  // skipped), lower-case and just build files, zsh, Kubernetes-style OWNERS files.
  '**/bin/!(*.*)',
  '**/scripts/!(*.*)',
  '**/hack/!(*.*)',
  '**/makefile',
  '**/justfile',
  '**/Justfile',
  '**/*.zsh',
  '**/OWNERS',
  '**/OWNERS_ALIASES',
  // Policies, the files Terraform's templatefile() renders, backend state configs, tech-docs pages
  // saved as .md.erb or .html.erb (Middleman's source/ folder: elsewhere .html.erb is an app's view).
  '**/*.rego',
  '**/*.tmpl',
  '**/*.tftpl',
  '**/*.backend',
  '**/*.md.erb',
  '**/source/**/*.html.erb',
];

export const DEFAULT_EXCLUDE: readonly string[] = [
  '**/node_modules/**',
  '**/bower_components/**',
  '**/vendor/**',
  '**/.git/**',
  '**/.hg/**',
  '**/.svn/**',
  '**/dist/**',
  '**/out/**',
  '**/target/**',
  '**/.next/**',
  '**/.nuxt/**',
  '**/coverage/**',
  '**/__pycache__/**',
  '**/.venv/**',
  '**/venv/**',
  '**/.terraform/**',
  '**/.cache/**',
  '**/.idea/**',
  '**/.vscode-test/**',
  '**/package-lock.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/Gemfile.lock',
  '**/poetry.lock',
  '**/Cargo.lock',
  '**/composer.lock',
  '**/*.min.*',
  '**/*.map',
  // Lore's own settings are not workspace knowledge (its record files are read separately).
  '.lore/config.json',
  '.lore/kinds',
];

export interface DiscoveryRules {
  include?: readonly string[];
  exclude?: readonly string[];
  /**
   * Files to index even though no include names them or an exclude matches them (e.g. one `*.tfvars` a person vetted).
   */
  allow?: readonly string[];
  maxBytes?: number;
  /**
   * Also index extensionless executable scripts (mayBeScript). Default: with the default include
   * list; a person who replaced the defaults chose what is indexed.
   */
  scripts?: boolean;
  /**
   * Leave out a folder named like build output (`build/`) when its entries look like a build tool
   * wrote them (looksLikeBuildOutput). Default: with the default exclude list.
   */
  outputFolders?: boolean;
  /** Accept secret-bearing files too: drift's listing knows they exist and never reads them (workspaceReader.ts). */
  listSecrets?: boolean;
}

/** What a person configures: globs added to the defaults (or replacing them with `defaults: false`). */
export interface DiscoveryConfig {
  include?: readonly string[];
  exclude?: readonly string[];
  allow?: readonly string[];
  /** Keep the default include and exclude lists under the configured globs. Default true. */
  defaults?: boolean;
  maxFileBytes?: number;
}

export function discoveryRulesFrom(config: DiscoveryConfig = {}): DiscoveryRules {
  const defaults = config.defaults !== false;
  return {
    include: [...(defaults ? DEFAULT_INCLUDE : []), ...(config.include ?? [])],
    exclude: [...(defaults ? DEFAULT_EXCLUDE : []), ...(config.exclude ?? [])],
    allow: [...(config.allow ?? [])],
    maxBytes: config.maxFileBytes,
    scripts: defaults,
    outputFolders: defaults,
  };
}

export interface DiscoveryMatcher {
  /** Whether a workspace-relative path (with `/`) should be indexed. */
  accepts(path: string): boolean;
  /**
   * Whether a path the lists leave out is an extensionless name that is indexed if it is a script
   * (isExecutableScript): user-data snippets, git hooks, tools kept outside bin/ and scripts/.
   */
  mayBeScript(path: string): boolean;
  /**
   * Whether a file on disk is indexed: its path is accepted, or it is an extensionless script
   * (`mode` from its stat; `head` reads its first bytes, asked only of an executable file).
   */
  acceptsFile(path: string, mode: number, head: () => string): boolean;
  /** Whether a folder can be skipped without looking inside. */
  skipsFolder(path: string): boolean;
  /**
   * Whether a folder, seen with its entries' names, is build output to skip (`build/` holding what a
   * build tool writes). Asked once the walk has read the folder; a git-ignored one never gets here.
   */
  isOutputFolder(path: string, entries: readonly string[]): boolean;
  maxBytes: number;
}

/**
 * One regular expression for a list of globs: the walk tests every path against both lists, and
 * one alternation costs about half of picomatch's matcher per glob. Falls back to picomatch for a
 * list it cannot join (a negated glob, whose meaning depends on being tested alone).
 */
function anyGlob(globs: readonly string[], options: picomatch.PicomatchOptions): (path: string) => boolean {
  if (!globs.length) return () => false;
  if (globs.some((glob) => glob.startsWith('!'))) return picomatch([...globs], options);
  const joined = new RegExp(globs.map((glob) => `(?:${picomatch.makeRe(glob, options).source})`).join('|'));
  return (path) => joined.test(path);
}

/**
 * Folder names that are build output in some ecosystems and hand-written source in others (Go's
 * `pkg/build/`, Kubernetes' `build/` scripts): left out only when their entries look like output.
 * Output is almost always git-ignored too, which the walk honours before this is asked.
 */
const OUTPUT_FOLDER_NAMES = new Set(['build']);

/** Entries only a build tool writes into its output folder (CMake, Ninja, Gradle/Android, Create React App, tsc). */
const OUTPUT_MARKERS = new Set([
  'CMakeCache.txt',
  'CMakeFiles',
  'cmake_install.cmake',
  'build.ninja',
  '.ninja_log',
  'intermediates',
  'asset-manifest.json',
  'tsconfig.tsbuildinfo',
]);

/** Entries output folders often hold but source may too: two of them together (Gradle, Sphinx, site generators). */
const OUTPUT_HINTS = new Set([
  'classes',
  'libs',
  'tmp',
  'reports',
  'test-results',
  'generated',
  'kotlin',
  'doctrees',
  'html',
  'sitemap.xml',
  '404.html',
  'compile_commands.json',
]);

/** setuptools' `lib.linux-x86_64-3.11`, `bdist.linux-x86_64`, `temp.*`, `scripts-3.11`; compiled files. */
const OUTPUT_ENTRY =
  /^(?:(?:lib|bdist|temp)\.(?:linux|macosx|win|freebsd|cygwin|mingw)[\w.-]*|scripts-\d[\d.]*)$|\.(?:o|obj|a|so|dylib|class|jar|pyc|js\.map)$/;

/**
 * Whether a folder's entries look like a build tool's output: one entry only a build tool writes,
 * a compiled file or setuptools folder, or two entries output folders usually hold. A folder of
 * scripts, Dockerfiles or Go source is not output.
 */
export function looksLikeBuildOutput(entries: readonly string[]): boolean {
  if (entries.some((name) => OUTPUT_MARKERS.has(name) || OUTPUT_ENTRY.test(name))) return true;
  return entries.filter((name) => OUTPUT_HINTS.has(name)).length >= 2;
}

/**
 * An executable file that opens with `#!`: a script, whatever its name. `head` reads the file's
 * first bytes, asked only of an executable file.
 */
export function isExecutableScript(mode: number, head: () => string): boolean {
  return (mode & 0o111) !== 0 && head().startsWith('#!');
}

export function discoveryMatcher(rules: DiscoveryRules = {}): DiscoveryMatcher {
  const options = { dot: true, nocase: false };
  const include = anyGlob(rules.include ?? DEFAULT_INCLUDE, options);
  const scripts = rules.scripts ?? rules.include === undefined;
  const outputFolders = rules.outputFolders ?? rules.exclude === undefined;
  const exclude = anyGlob(rules.exclude ?? DEFAULT_EXCLUDE, options);
  const allowGlobs = rules.allow ?? [];
  const allow = allowGlobs.length ? picomatch([...allowGlobs], options) : () => false;
  // An allow glob reaches into an excluded folder only along its literal leading path
  // (`vendor/docs/**/*.md` opens vendor/ and vendor/docs/); `**/x` never opens node_modules.
  const allowBases = allowGlobs.map((glob) => picomatch.scan(glob).base).filter((base) => base !== '');
  const onAllowPath = (folder: string) =>
    allowBases.some((base) => base === folder || base.startsWith(`${folder}/`) || folder.startsWith(`${base}/`));
  const mayBeScript = (path: string) => scripts && !/\.[^/]*$/.test(path) && !exclude(path) && !isSecretFile(path);
  const accepts = (path: string) =>
    allow(path) ||
    ((include(path) || isRepoRecordPath(path)) && !exclude(path) && (!!rules.listSecrets || !isSecretFile(path)));
  return {
    // `.lore/` record files are always read: they are how a team's signed records arrive.
    // Secret-bearing files (secretFiles.ts) stay out whatever the lists say, unless a person allows one.
    accepts,
    mayBeScript,
    acceptsFile: (path, mode, head) => accepts(path) || (mayBeScript(path) && isExecutableScript(mode, head)),
    skipsFolder: (path) => (exclude(`${path}/`) || exclude(`${path}/x`)) && !onAllowPath(path),
    isOutputFolder: (path, entries) =>
      outputFolders && OUTPUT_FOLDER_NAMES.has(baseName(path)) && !onAllowPath(path) && looksLikeBuildOutput(entries),
    maxBytes: rules.maxBytes ?? MAX_INDEXED_BYTES,
  };
}
