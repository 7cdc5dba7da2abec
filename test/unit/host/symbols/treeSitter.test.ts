// Symbols located by a real parser (tree-sitter, loaded from @vscode/tree-sitter-wasm as the
// owner loads it): a symbol's span is its whole declaration node, so an edit inside it is drift
// and an edit anywhere else — a comment or string naming it, a namesake in another scope, moving
// it within the file — is not. Each reference records the finder that fingerprinted it: a parser
// that is not loaded (yet) never turns into a false `changed`, and a pattern fingerprint taken
// before the parser loaded is re-taken by the parser without a finding when nothing changed.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATTERN_FINDER, type DriftState } from '../../../../src/engine';
import { GRAMMARS } from '../../../../src/host/symbols/declarations';
import { TreeSitterSymbols, treeSitterSymbols, wasmDirectory } from '../../../../src/host/symbols/treeSitter';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

const QUEUE = [
  '// enqueue(job) puts a job on the queue; see also the worker.',
  'export function enqueue(db, job) {',
  '  const re = /}/; // a brace in a regex the patterns miscount',
  '  return db.query("INSERT INTO jobs VALUES ($1)", [job]);',
  '}',
  '',
  'export class Queue {',
  '  enqueue(job) {',
  '    return this.items.push(job);',
  '  }',
  '',
  '  drain() {',
  '    return this.items.splice(0);',
  '  }',
  '}',
  '',
  'const HELP = `',
  'function enqueue() { is how the old API looked',
  '`;',
  '',
  'export function release(db, id) {',
  '  const enqueue = () => id;',
  '  return db.query("DELETE FROM locks WHERE id = $1", [id]);',
  '}',
  '',
].join('\n');

const DOC = [
  '# Jobs',
  'Producers call `enqueue()` in `src/jobs/queue.ts`; the queue ' +
    'class buffers with `Queue.enqueue()`; `release()` frees a lock.',
  'Infrastructure: `var.region`, and `max_replicas` in `config/app.yaml`.',
].join('\n');

const VARIABLES = 'variable "region" {\n  default = "eu-west-2"\n}\n';
const APP_YAML = 'settings:\n  max_replicas: 2\n  timeout: 30\n';

describe('drift: symbols located by tree-sitter', function () {
  const parser = treeSitterSymbols();
  let s: DriftSpace;
  before(() => parser.whenReady);
  beforeEach(() => {
    s = driftSpace(
      { 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE, 'infra/variables.tf': VARIABLES, 'config/app.yaml': APP_YAML },
      [],
      parser,
    );
    s.engine.driftScan();
  });
  afterEach(() => s.cleanup());

  const row = (raw: string) => {
    const rows = s.rows('docs/jobs.md', raw);
    assert.equal(rows.length, 1, `one reference ${raw}`);
    return rows[0];
  };
  const stateOf = (raw: string): DriftState => row(raw).state;
  const edit = (from: string, to: string) => {
    const before = QUEUE;
    assert.ok(before.includes(from), `the fixture holds ${from}`);
    s.write('src/jobs/queue.ts', before.replace(from, to));
    s.engine.driftCheck(['src/jobs/queue.ts']);
  };

  it('the grammars load, and each symbol reference records the finder that fingerprinted it', () => {
    assert.equal(parser.finderFor('src/jobs/queue.ts'), 'tree-sitter:typescript/1');
    assert.equal(row('enqueue()').finder, 'tree-sitter:typescript/1');
    assert.equal(row('Queue.enqueue()').finder, 'tree-sitter:typescript/1');
    assert.equal(stateOf('enqueue()'), 'current');
    assert.equal(stateOf('Queue.enqueue()'), 'current');
  });

  it('a language without a grammar (Terraform, YAML) is still located by the patterns', () => {
    assert.equal(parser.finderFor('infra/variables.tf'), null);
    assert.equal(parser.finderFor('config/app.yaml'), null);
    assert.equal(row('var.region').finder, PATTERN_FINDER);
    assert.equal(row('max_replicas').finder, PATTERN_FINDER);
    s.write('config/app.yaml', APP_YAML.replace('timeout: 30', 'timeout: 60'));
    s.write('infra/variables.tf', VARIABLES.replace('eu-west-2', 'eu-west-1'));
    s.engine.driftCheck(['infra/variables.tf', 'config/app.yaml']);
    assert.equal(stateOf('var.region'), 'changed');
    assert.equal(stateOf('max_replicas'), 'current');
    s.write('config/app.yaml', APP_YAML.replace('max_replicas: 2', 'max_replicas: 3'));
    s.engine.driftCheck(['config/app.yaml']);
    assert.equal(stateOf('max_replicas'), 'changed');
  });

  it('an edit inside the declaration is changed', () => {
    edit('INSERT INTO jobs', 'INSERT INTO queued_jobs');
    assert.equal(stateOf('enqueue()'), 'changed');
    assert.equal(stateOf('Queue.enqueue()'), 'current', 'the method is its own symbol');
  });

  it('Class.method resolves within the class: an edit to it is changed, to another method is not', () => {
    edit('return this.items.splice(0);', 'return this.items.splice(0, 10);');
    assert.equal(stateOf('Queue.enqueue()'), 'current');
    edit('return this.items.push(job);', 'return this.items.unshift(job);');
    assert.equal(stateOf('Queue.enqueue()'), 'changed');
    assert.equal(stateOf('enqueue()'), 'current', 'a bare name means the top-level function, not the method');
  });

  it('an edit in a comment or a string naming the symbol, or to a namesake in another scope, is not drift', () => {
    edit('// enqueue(job) puts a job on the queue', '// enqueue(job) puts one job on the queue');
    assert.equal(stateOf('enqueue()'), 'current', 'a comment above');
    edit('function enqueue() { is how the old API looked', 'function enqueue() { was how the old API looked');
    assert.equal(stateOf('enqueue()'), 'current', 'a string that reads like a declaration');
    edit('const enqueue = () => id;', 'const enqueue = () => id + 1;');
    assert.equal(stateOf('enqueue()'), 'current', 'a local of another function');
    edit('return this.items.push(job);', 'return this.items.unshift(job);');
    assert.equal(stateOf('enqueue()'), 'current', 'a method of the same name');
  });

  it('a declaration moved within its file, its own text unchanged, is current', () => {
    const lines = QUEUE.split('\n');
    const fn = lines.slice(1, 6);
    const moved = [...lines.slice(0, 1), ...lines.slice(6, 25), ...fn].join('\n');
    s.write('src/jobs/queue.ts', moved);
    s.engine.driftCheck(['src/jobs/queue.ts']);
    assert.equal(stateOf('enqueue()'), 'current');
  });

  it('a renamed declaration is gone from its file; moved to another file, it is relocated', () => {
    edit('export function release(db, id) {', 'export function free(db, id) {');
    const gone = row('release()');
    assert.equal(gone.state, 'gone');
    assert.match(gone.detail, /release is no longer defined in src\/jobs\/queue\.ts/);

    s.write('src/jobs/queue.ts', QUEUE);
    s.engine.driftCheck(['src/jobs/queue.ts']);
    assert.equal(stateOf('release()'), 'current');
    const lines = QUEUE.split('\n');
    assert.equal(lines[20], 'export function release(db, id) {');
    s.write('src/jobs/queue.ts', lines.slice(0, 20).join('\n'));
    s.write('src/jobs/locks.ts', lines.slice(20).join('\n'));
    s.engine.driftCheck(['src/jobs/queue.ts', 'src/jobs/locks.ts']);
    const moved = s.engine.driftFindings({ path: 'docs/jobs.md' }).find((f) => f.reference.raw === 'release()');
    assert.equal(moved?.state, 'relocated');
    assert.equal(moved?.evidence.new_path, 'src/jobs/locks.ts');
    assert.equal(stateOf('enqueue()'), 'current');
  });

  it("a memory's path#Class.method anchor is fingerprinted by the parser and checked on recall", async () => {
    const saved = s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts#Queue.enqueue'] }));
    assert.ok(saved.saved);
    const flagged = () => (s.engine.get(saved.key) as { drift?: Array<{ state: DriftState }> }).drift ?? [];
    edit('return this.items.splice(0);', 'return [];');
    assert.deepEqual(flagged(), []);
    edit('return this.items.push(job);', 'return this.items.unshift(job);');
    assert.deepEqual(
      flagged().map((f) => f.state),
      ['changed'],
    );
  });
});

describe('drift: moving between the patterns and the parser', function () {
  const parser = treeSitterSymbols();
  let s: DriftSpace;
  before(() => parser.whenReady);
  afterEach(() => s.cleanup());

  it(
    'a pattern fingerprint is re-taken by the parser, with no ' +
      'finding, when the symbol is unchanged; drift is found from then ' +
      'on',
    () => {
      s = driftSpace({ 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE });
      s.engine.driftScan();
      const before = s.rows('docs/jobs.md', 'enqueue()')[0];
      assert.equal(before.finder, PATTERN_FINDER);

      s.reopen(parser);
      const scan = s.engine.driftScan();
      assert.deepEqual(
        scan.findings.filter((f) => f.reference.raw === 'enqueue()'),
        [],
        'no finding on upgrade',
      );
      const after = s.rows('docs/jobs.md', 'enqueue()')[0];
      assert.equal(after.state, 'current');
      assert.equal(after.finder, 'tree-sitter:typescript/1');
      assert.notEqual(
        after.fingerprint,
        before.fingerprint,
        'the parser covers the whole function, the patterns stopped at the regex brace',
      );

      s.write('src/jobs/queue.ts', QUEUE.replace('INSERT INTO jobs', 'INSERT INTO queued_jobs'));
      s.engine.driftCheck(['src/jobs/queue.ts']);
      assert.equal(
        s.rows('docs/jobs.md', 'enqueue()')[0].state,
        'changed',
        'a change past the brace the patterns stopped at',
      );
    },
  );

  it(
    'a pattern fingerprint whose symbol changed before the parser ' + 'loaded stays with the patterns and is reported',
    () => {
      s = driftSpace({ 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE });
      s.engine.driftScan();
      s.write(
        'src/jobs/queue.ts',
        QUEUE.replace('export function enqueue(db, job) {', 'export function enqueue(db, job, priority) {'),
      );
      s.reopen(parser);
      s.engine.driftScan();
      const after = s.rows('docs/jobs.md', 'enqueue()')[0];
      assert.equal(after.state, 'changed');
      assert.equal(after.finder, PATTERN_FINDER);
    },
  );

  it(
    'while the parser is not loaded, a parser fingerprint is not ' +
      're-checked: no false changed, and the edit is found once it ' +
      'loads',
    () => {
      s = driftSpace({ 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE }, [], parser);
      s.engine.driftScan();
      assert.equal(s.rows('docs/jobs.md', 'enqueue()')[0].finder, 'tree-sitter:typescript/1');

      // A second parser object, asked before its grammars have loaded: genuinely not ready.
      const loading = new TreeSitterSymbols(wasmDirectory());
      assert.equal(loading.finderFor('src/jobs/queue.ts'), null);
      s.reopen(loading);
      s.write('src/jobs/queue.ts', QUEUE.replace('const re = /}/;', 'const re = /}/g;'));
      const findings = s.engine.driftCheck(['src/jobs/queue.ts']);
      assert.equal(
        findings.find((f) => f.reference.raw === 'enqueue()')?.state,
        'current',
        'not reported changed while the parser is loading',
      );
      assert.match(
        s.rows('docs/jobs.md', 'enqueue()')[0].detail,
        /not re-checked: tree-sitter:typescript\/1 is not loaded yet/,
      );
      assert.equal(s.rows('docs/jobs.md', 'Queue.enqueue()')[0].state, 'current');

      return loading.whenReady.then(() => {
        s.engine.driftCheck(['src/jobs/queue.ts']);
        assert.equal(
          s.rows('docs/jobs.md', 'enqueue()')[0].state,
          'changed',
          'checked with its own finder once loaded',
        );
        assert.equal(s.rows('docs/jobs.md', 'Queue.enqueue()')[0].state, 'current');
      });
    },
  );

  it(
    'a fingerprint by other span rules is re-taken only while its ' +
      'file is unchanged; after an edit it is left unchecked, not ' +
      'changed',
    () => {
      s = driftSpace({ 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE }, [], parser);
      s.engine.driftScan();
      const older = 'tree-sitter:typescript/0';
      const setOlder = () =>
        s.sql('UPDATE drift_refs SET finder = ?, fingerprint = ? WHERE raw = ?', [older, 'an older span', 'enqueue()']);
      setOlder();
      s.engine.driftScan();
      const retaken = s.rows('docs/jobs.md', 'enqueue()')[0];
      assert.equal(retaken.state, 'current');
      assert.equal(retaken.finder, 'tree-sitter:typescript/1');
      assert.match(retaken.detail, /fingerprinted again by tree-sitter:typescript\/1; unchanged/);

      setOlder();
      s.write('src/jobs/queue.ts', QUEUE.replace('INSERT INTO jobs', 'INSERT INTO queued_jobs'));
      s.engine.driftCheck(['src/jobs/queue.ts']);
      const unchecked = s.rows('docs/jobs.md', 'enqueue()')[0];
      assert.equal(unchecked.state, 'current');
      assert.equal(unchecked.finder, older);
      assert.match(
        unchecked.detail,
        /not re-checked: tree-sitter:typescript\/1 is loaded, not tree-sitter:typescript\/0/,
      );
    },
  );

  it('without any parser, a parser fingerprint keeps its state through a full scan', () => {
    s = driftSpace({ 'docs/jobs.md': DOC, 'src/jobs/queue.ts': QUEUE }, [], parser);
    s.engine.driftScan();
    s.reopen();
    s.write('src/jobs/queue.ts', `// header\n${QUEUE}`);
    const scan = s.engine.driftScan();
    assert.deepEqual(
      scan.findings.filter((f) => f.reference.raw.includes('enqueue')),
      [],
    );
  });
});

describe('drift: declarations per language', function () {
  const parser = treeSitterSymbols();
  before(() => parser.whenReady);

  const spans = (path: string, text: string, name: string): string[] =>
    parser
      .declarations(path, text)
      .filter((d) => d.name === name)
      .map((d) => text.slice(d.from, d.to));

  it('TypeScript: exports, classes and their members, interfaces, type aliases, enums, const functions', () => {
    const ts = [
      'export interface Job { id: string }',
      'export type Id = string;',
      'export enum Mode { A, B }',
      'export const handler = async (job: Job) => {',
      '  return job.id;',
      '};',
      'export default class Worker {',
      '  @traced() run(job: Job): void {}',
      '  private limit = 3;',
      '}',
    ].join('\n');
    assert.deepEqual(spans('a.ts', ts, 'Job'), ['export interface Job { id: string }']);
    assert.deepEqual(spans('a.ts', ts, 'Id'), ['export type Id = string;']);
    assert.deepEqual(spans('a.ts', ts, 'Mode'), ['export enum Mode { A, B }']);
    assert.deepEqual(spans('a.ts', ts, 'handler'), [
      'export const handler = async (job: Job) => {\n  return job.id;\n};',
    ]);
    assert.equal(spans('a.ts', ts, 'Worker').length, 1);
    assert.match(spans('a.ts', ts, 'Worker.run')[0], /run\(job: Job\): void \{\}$/);
    assert.deepEqual(spans('a.ts', ts, 'Worker.limit'), ['private limit = 3']);
  });

  it('Go: functions, methods as Type.Method, types and const blocks', () => {
    const go = [
      'package x',
      '',
      'type Server struct {',
      '\tport int',
      '}',
      '',
      'func (s *Server) Start() error {',
      '\treturn nil',
      '}',
      '',
      'func New() *Server { return &Server{} }',
      '',
      'const (',
      '\tA = 1',
      '\tB = 2',
      ')',
    ].join('\n');
    assert.deepEqual(spans('a.go', go, 'Server'), ['type Server struct {\n\tport int\n}']);
    assert.deepEqual(spans('a.go', go, 'Server.Start'), ['func (s *Server) Start() error {\n\treturn nil\n}']);
    assert.deepEqual(spans('a.go', go, 'New'), ['func New() *Server { return &Server{} }']);
    assert.deepEqual(spans('a.go', go, 'B'), ['B = 2']);
  });

  it('Python: decorated functions and methods', () => {
    const py = [
      '@app.route("/")',
      'def index():',
      '    return "hi"',
      '',
      'class Store:',
      '    def get(self, key):',
      '        return key',
      '',
    ].join('\n');
    assert.deepEqual(spans('a.py', py, 'index'), ['@app.route("/")\ndef index():\n    return "hi"']);
    assert.deepEqual(spans('a.py', py, 'Store.get'), ['def get(self, key):\n        return key']);
  });

  it('Rust, Java, Ruby and Bash', () => {
    const rs = [
      '#[derive(Debug)]',
      'pub struct Config { port: u16 }',
      '',
      'impl Config {',
      '    pub fn port(&self) -> u16 { self.port }',
      '}',
    ].join('\n');
    assert.deepEqual(spans('a.rs', rs, 'Config'), [
      '#[derive(Debug)]\npub struct Config { port: u16 }',
      'impl Config {\n    pub fn port(&self) -> u16 { self.port }\n}',
    ]);
    assert.deepEqual(spans('a.rs', rs, 'Config.port'), ['pub fn port(&self) -> u16 { self.port }']);
    const java = 'public class Billing {\n  public int total(int a) { return a; }\n}\n';
    assert.deepEqual(spans('A.java', java, 'Billing.total'), ['public int total(int a) { return a; }']);
    const rb = 'module Billing\n  class Invoice\n    def total\n      1\n    end\n  end\nend\n';
    assert.deepEqual(spans('a.rb', rb, 'Invoice.total'), ['def total\n      1\n    end']);
    assert.deepEqual(spans('a.rb', rb, 'Billing.Invoice.total'), ['def total\n      1\n    end']);
    const sh = '#!/bin/bash\ndeploy() {\n  echo deploy\n}\n';
    assert.deepEqual(spans('run.sh', sh, 'deploy'), ['deploy() {\n  echo deploy\n}']);
  });

  it('the build copies every grammar the parser loads into dist/tree-sitter/', () => {
    const build = readFileSync(join(__dirname, '..', '..', '..', '..', 'esbuild.mjs'), 'utf8');
    const listed = /const TREE_SITTER_GRAMMARS = \[([^\]]*)\]/
      .exec(build)?.[1]
      .match(/'([\w-]+)'/g)
      ?.map((g) => g.slice(1, -1));
    assert.deepEqual(listed?.sort(), Object.keys(GRAMMARS).sort());
  });

  it('offsets are string offsets, also after non-ASCII text', () => {
    const ts = '// café ☕ 𝔘\nexport function brew() { return "é"; }\n';
    assert.deepEqual(spans('a.ts', ts, 'brew'), ['export function brew() { return "é"; }']);
  });
});
