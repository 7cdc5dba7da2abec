// Secrets, measured on a committed corpus (test/fixtures/secrets/corpus.ts: 256 realistic forms,
// every value synthetic): each form in a memory field is refused, each in files of six types is
// indexed with the secret redacted, and then not one secret is anywhere in the database file
// (FTS tables included) or in what recall and read_file return. Secret-bearing files (kubeconfigs,
// service-account keys, registry logins, .NET settings, Kubernetes Secrets) are never indexed.
// Before Lore's own rules and secretlint's preset were added, 108 of the forms were stored raw.

import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isLoreError, type Engine } from '../../src/engine';
import { localApi } from '../../src/host/engineApi';
import { openStore, type OpenStore } from '../../src/host/openStore';
import { readWorkspaceFile } from '../../src/host/workspaceFiles';
import { SECRET_CORPUS } from '../fixtures/secrets/corpus';
import { person, tempDir } from '../support/store';

/** How each file type carries a form. */
const FILE_TYPES: Record<string, (text: string, i: number) => string> = {
  'docs/notes-%.md': (text) => `# Deploy notes\n\nWhat we used for the release job:\n\n${text}\n\nRotate it after.\n`,
  'config/app-%.yaml': (text) => `service:\n  name: orders\n# credentials below\n${text}\nreplicas: 3\n`,
  'src/settings-%.ts': (text) => `// release settings\nexport const settings = ${JSON.stringify(text)};\n`,
  'scripts/deploy-%.sh': (text) => `#!/bin/sh\n# deploy the orders service\n${text}\nkubectl apply -f k8s/\n`,
  'docker/Dockerfile.%': (text) =>
    `FROM node:20\n${text
      .split('\n')
      .map((l) => `# ${l}`)
      .join('\n')}\nRUN npm ci\n`,
  'data/fixture-%.json': (text) => JSON.stringify({ note: 'release credentials', value: text }, null, 2) + '\n',
};

const SECRET_FILES: Record<string, string> = {
  'kubeconfig.yaml': 'apiVersion: v1\nkind: Config\nusers:\n- name: admin\n',
  'deploy/gcp-sa.json': '{ "type": "service_account", "project_id": "orders" }\n',
  'ops/orders-service-account.json': '{ "type": "service_account" }\n',
  '.docker/config.json': '{ "auths": {} }\n',
  'src/Api/appsettings.json': '{ "ConnectionStrings": {} }\n',
  'src/Api/appsettings.Production.json': '{ "ConnectionStrings": {} }\n',
  'k8s/secret.yaml': 'apiVersion: v1\nkind: Secret\n',
  'k8s/db-secret.yaml': 'apiVersion: v1\nkind: Secret\n',
  '.kube/config': 'apiVersion: v1\nkind: Config\n',
  'clusters/prod.kubeconfig': 'apiVersion: v1\nkind: Config\n',
  '.s3cfg': '[default]\n',
  '.envrc': 'export FOO=1\n',
  'vpn/office.ovpn': 'client\n',
  'keys/release.asc': 'release key\n',
  '.aws/config': '[default]\n',
  'application_default_credentials.json': '{}\n',
  'secrets/prod.secrets.yaml': 'a: 1\n',
};

describe('secrets: a corpus of realistic forms is never stored or returned', function () {
  this.timeout(300_000);
  let root: string;
  let store: OpenStore;
  let engine: Engine;

  before(async () => {
    const dir = tempDir('lore-secrets-');
    root = join(dir, 'repo');
    const files: string[] = [];
    SECRET_CORPUS.forEach((form, i) => {
      for (const [pattern, wrap] of Object.entries(FILE_TYPES)) {
        const path = pattern.replace('%', String(i));
        mkdirSync(join(root, dirname(path)), { recursive: true });
        writeFileSync(join(root, path), wrap(form.text, i));
        files.push(path);
      }
    });
    for (const [path, text] of Object.entries(SECRET_FILES)) {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), text + 'indexedmarker\n');
    }
    store = openStore({ workspace: root, home: join(dir, 'home'), door: 'test', symbols: false });
    engine = store.engine;
  });
  after(() => store?.close());

  it(`refuses every one of the ${SECRET_CORPUS.length} forms in a memory field, naming a rule`, async () => {
    const stored: string[] = [];
    for (const form of SECRET_CORPUS) {
      const oneLine = !form.text.includes('\n') && form.text.length <= 280;
      for (const field of oneLine ? ['description', 'body'] : ['body']) {
        try {
          await engine.remember(person, {
            type: 'fact',
            title: `Release credentials ${form.id}`,
            description: field === 'description' ? form.text : 'how the release job logs in',
            body: field === 'body' ? form.text : undefined,
          });
          stored.push(`${form.id} (${field})`);
        } catch (error) {
          assert.ok(isLoreError(error) && error.code === 'SECRET_DETECTED', `${form.id}: ${error}`);
        }
      }
    }
    assert.deepEqual(stored, [], `${stored.length} forms were saved`);
  });

  it('indexes the files with every secret redacted: none in the database, none from read_file or recall', async () => {
    await localApi(engine, root).indexWorkspace(root, { full: true });
    const database = readFileSync(store.paths.database).toString('latin1');
    const raw = SECRET_CORPUS.filter((form) => database.includes(form.secret)).map((f) => f.id);
    assert.deepEqual(raw, [], `${raw.length} secrets stored raw in the database file`);

    const returned: string[] = [];
    SECRET_CORPUS.forEach((form, i) => {
      for (const pattern of Object.keys(FILE_TYPES)) {
        let text = '';
        try {
          text = readWorkspaceFile(root, pattern.replace('%', String(i))).text;
        } catch (error) {
          // read_file serves documents and infrastructure files only: a refusal returns nothing.
          assert.ok(isLoreError(error), String(error));
        }
        if (text.includes(form.secret)) returned.push(`${form.id} via read_file ${pattern}`);
      }
    });
    for (const query of ['release job credentials', 'deploy orders service', 'rotate it after', 'kubectl apply']) {
      const result = await engine.recall({ query, limit: 50 });
      const text = JSON.stringify(result);
      for (const form of SECRET_CORPUS) if (text.includes(form.secret)) returned.push(`${form.id} via recall`);
    }
    assert.deepEqual(returned, [], `${returned.length} secrets returned`);
  });

  it(`never indexes the ${Object.keys(SECRET_FILES).length} secret-bearing files`, () => {
    const database = readFileSync(store.paths.database).toString('latin1');
    assert.ok(!database.includes('indexedmarker'), 'a secret-bearing file was indexed');
    for (const path of Object.keys(SECRET_FILES))
      assert.throws(() => readWorkspaceFile(root, path), /secret/i, `read_file serves ${path}`);
  });
});
