// Which command a flag is given to, and whether that command is a CLI this repository defines. A
// flag nothing in the workspace defines is usually another tool's (`kubectl --namespace`, `helm
// --set`): it is reported broken only when the command line it is written in runs one of this
// repository's programs (`./scripts/deploy.sh`, `go run ./cmd/upgrader`, `upgrader` built from
// `cmd/upgrader/`) and that program defines flags the patterns can see (symbols.ts findFlags) —
// a program whose flags are declared some other way, or that hands its arguments on to another
// program, is not known to lack one.

import type { Workspace } from './workspace';

/** Words that run the program named after them: `go run ./cmd/x`, `python3 tools/x.py`, `sudo ./x.sh`. */
const RUNNERS = new Set(['sudo', 'env', 'exec', 'time', 'bash', 'sh', 'zsh', 'python', 'python3', 'node', 'ruby']);
const TWO_WORD_RUNNERS = new Set(['go run', 'uv run', 'poetry run', 'pipenv run', 'bundle exec']);
/** A program's own name or path: `upgrader`, `./deploy.sh`, `cmd/upgrader`, `bin/lore-admin`. */
const PROGRAM = /^(?:\.{0,2}\/)?[A-Za-z0-9_][\w.+-]*(?:\/[\w.+-]+)*\/?$/;
/** Extensions of scripts run by name. */
const SCRIPT_EXTENSIONS = ['', '.sh', '.bash', '.py', '.rb', '.js', '.mjs', '.ts'];
/**
 * Test code and fixtures are not a program a doc runs by name: `lore --new` in a README is not about
 * `test/editor/suite/lore.ts`, a test helper that happens to spell the CLI's flags.
 */
const TEST_CODE = /(^|\/)(tests?|spec|specs|__tests__|fixtures?|testdata|e2e)\/|\.(test|spec)\.[a-z]+$/;

/**
 * The program a command line (a code span, or one line of a code block) runs, as written; null when
 * the text does not start like a command (a prompt, environment assignments and runners skipped).
 */
export function commandOf(code: string): string | null {
  const words = code
    .trim()
    .replace(/^[$#>]\s+/, '')
    .split(/\s+/);
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    if (/^[A-Za-z_]\w*=/.test(word)) i++;
    else if (TWO_WORD_RUNNERS.has(`${word} ${words[i + 1] ?? ''}`)) i += 2;
    else if (RUNNERS.has(word)) i++;
    else if (word.startsWith('-') && i > 0) i++;
    else break;
  }
  const program = words[i];
  return program && !program.startsWith('-') && PROGRAM.test(program) ? program.replace(/\/$/, '') : null;
}

/**
 * Arguments handed on to another program (`docker buildx bake "$@"`), or parsed leniently (argparse's
 * parse_known_args, cobra's DisableFlagParsing, commander's allowUnknownOption): any flag may be right.
 */
const PASSES_ON = /\$[@*]|\$\{[@*]\}|\bsys\.argv\b|parse_known_args|DisableFlagParsing|UnknownFlags|allowUnknownOption/;

/**
 * Help flags the argument parser adds itself (argparse and click `-h/--help`, cobra `--help`, Go's flag
 * `-h`/`-help`): a program defines them without naming them, so they are never reported undefined.
 */
export function isAutomaticFlag(flag: string): boolean {
  return flag === '--help' || flag === '-help' || flag === '-h';
}

/** A program file whose flags drift can see, and that refuses any other. */
function definesFlags(ws: Workspace, path: string): boolean {
  if (!ws.patternDefinitions(path).some((d) => d.kind === 'flag')) return false;
  const text = ws.text(path);
  return text !== null && !PASSES_ON.test(text);
}

/** The files directly in a folder: a Go command is its package (`cmd/upgrader/*.go`). */
function filesIn(ws: Workspace, dir: string): string[] {
  return ws
    .filesUnder(dir)
    .map(([p]) => p)
    .filter((p) => !p.slice(dir.length + 1).includes('/'));
}

/**
 * The files of this repository's program that `command` names and that define flags; empty when it
 * is not one of ours. `paths` are where a command written as a path may be (resolve.ts: relative to
 * the document, its project, the root).
 */
export function cliFiles(ws: Workspace, command: string, paths: readonly string[]): string[] {
  const out = new Set<string>();
  const take = (files: readonly string[]) => files.filter((f) => definesFlags(ws, f)).forEach((f) => out.add(f));
  if (command.includes('/')) {
    for (const path of paths) {
      if (ws.isFile(path)) take([path]);
      else if (ws.isDir(path)) take(filesIn(ws, path));
    }
  } else {
    for (const ext of SCRIPT_EXTENSIONS) take(ws.withBasename(`${command}${ext}`).filter((p) => !TEST_CODE.test(p)));
    // `go build ./cmd/upgrader` makes the program `upgrader`.
    for (const dir of ws.dirsNamed(command)) if (/(^|\/)cmd\/[^/]+$/.test(dir)) take(filesIn(ws, dir));
  }
  return [...out].sort();
}
