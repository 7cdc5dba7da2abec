// Where symbols are defined and what text their fingerprint covers, per language: the span must
// hold the whole definition (so a change inside it is drift) and nothing else (so a change beside
// it is not).

import assert from 'node:assert/strict';
import { findDefinitions, type SymbolDefinition } from '../../../../src/engine/drift/symbols';

function span(path: string, text: string, name: string): string[] {
  const lines = text.split('\n');
  const defs = findDefinitions(path, text).filter((d: SymbolDefinition) => d.name === name);
  assert.equal(defs.length, 1, `${name} in ${path}: ${JSON.stringify(findDefinitions(path, text).map((d) => d.name))}`);
  return lines.slice(defs[0].start, defs[0].end + 1);
}

describe('drift: symbol definitions', () => {
  it(
    'Go: a function to its closing brace; a struct field with its doc ' + 'comments and markers, also by its JSON name',
    () => {
      const go = [
        'package v1',
        '',
        '// Spec of a cache.',
        'type RedisSpec struct {',
        '\t// NumCacheClusters is between 2 and 6.',
        '\t// +kubebuilder:validation:Minimum=2',
        '\tNumCacheClusters int `json:"numCacheClusters"`',
        '\tEngine string `json:"engine,omitempty"`',
        '}',
        '',
        'func (r *Redis) Validate() error {',
        '\treturn nil',
        '}',
      ].join('\n');
      assert.deepEqual(span('a.go', go, 'numCacheClusters'), go.split('\n').slice(4, 7));
      assert.deepEqual(span('a.go', go, 'NumCacheClusters'), go.split('\n').slice(4, 7));
      assert.deepEqual(span('a.go', go, 'Validate'), go.split('\n').slice(10, 13));
      assert.deepEqual(span('a.go', go, 'RedisSpec'), go.split('\n').slice(2, 9));
    },
  );

  it('Python: a function by its indentation', () => {
    const py = 'def handler(event):\n    if event:\n        return 1\n\n    return 0\n\ndef other():\n    pass\n';
    assert.deepEqual(span('x.py', py, 'handler'), [
      'def handler(event):',
      '    if event:',
      '        return 1',
      '',
      '    return 0',
    ]);
  });

  it('YAML: a key with what is nested under it; a Kubernetes resource by metadata.name, as its whole document', () => {
    const yaml = [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata:',
      '  labels:',
      '    app: x',
      '  name: controller',
      'spec:',
      '  replicas: 1',
      '---',
      'kind: Service',
      'metadata:',
      '  name: controller-service',
      'spec:',
      '  ports:',
      '  - port: 443',
      '    name: https',
    ].join('\n');
    assert.deepEqual(span('a.yaml', yaml, 'controller'), yaml.split('\n').slice(0, 8));
    const defs = findDefinitions('a.yaml', yaml).filter((d) => d.name === 'controller');
    assert.equal(defs[0].workload, 'StatefulSet');
    assert.deepEqual(span('a.yaml', yaml, 'ports'), ['  ports:', '  - port: 443', '    name: https']);
  });

  it('Terraform, Makefile, Dockerfile and shell', () => {
    const tf = 'resource "aws_s3_bucket" "logs" {\n  bucket = "x"\n}\n';
    assert.deepEqual(span('main.tf', tf, 'aws_s3_bucket.logs'), tf.trim().split('\n'));
    const make = 'build:\n\tgo build ./...\n\ntest: build\n\tgo test ./...\n';
    assert.deepEqual(span('Makefile', make, 'test'), ['test: build', '\tgo test ./...']);
    assert.deepEqual(span('Dockerfile', 'FROM alpine\nARG VERSION=1\n', 'VERSION'), ['ARG VERSION=1']);
    const sh = '#!/bin/bash\nusage() {\n  echo usage\n}\ncase "$1" in\n  --force) F=1 ;;\nesac\n';
    assert.deepEqual(span('run', sh, 'usage'), ['usage() {', '  echo usage', '}']);
    assert.deepEqual(span('run', sh, '--force'), ['  --force) F=1 ;;']);
  });

  it("TypeScript: a module-level const is a definition, a function's local of the same name is not", () => {
    const ts = [
      'export const retryPolicy = { attempts: 3 };',
      '',
      'export function send() {',
      '  const retryPolicy = { attempts: 1 };',
      '  return retryPolicy;',
      '}',
    ].join('\n');
    assert.deepEqual(span('a.ts', ts, 'retryPolicy'), ['export const retryPolicy = { attempts: 3 };']);
    assert.deepEqual(
      findDefinitions('b.ts', 'function go() {\n  let retryPolicy = 1;\n}\n').map((d) => d.name),
      ['go'],
    );
  });

  it('prose defines nothing', () => {
    assert.deepEqual(findDefinitions('docs/a.md', 'key: value\nfunction x() {}\n'), []);
  });
});
