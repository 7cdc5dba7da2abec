// A synthetic docs + infrastructure repository for the index benchmarks, the same for the same
// seed: ADRs, runbooks, guides, postmortems and READMEs in markdown (1–20 KB, headings, lists,
// code blocks, links), Terraform modules, Kubernetes manifests, a Helm chart per service,
// Dockerfiles and CI workflows — plus files the index must skip (source code, node_modules, a
// .gitignored build folder), so discovery does real work. Text comes from the memory bench's
// engineering vocabulary (bench/corpus.ts), so its queries find documents too.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Corpus, VOCABULARY } from './corpus';

export interface CorpusFile {
  path: string;
  text: string;
  /** Whether the default discovery rules index it (the rest are there to be skipped). */
  indexed: boolean;
}

/** The markdown file of about 20 KB that the re-index benchmark edits. */
export const EDITED_FILE = 'docs/guides/operations-handbook.md';

const V = VOCABULARY;

class DocWriter {
  readonly c: Corpus;
  constructor(seed: number) {
    this.c = new Corpus(seed);
  }

  sentence(component: string): string {
    const c = this.c;
    const templates = [
      () => `When ${component} ${c.pick(V.verb)} under load we saw ${c.pick(V.problem)} in ${c.pick(V.env)}.`,
      () => `${cap(c.pick(V.action))} the ${c.pick(V.thing)} before you ${c.pick(V.action)} the ${c.pick(V.thing)}.`,
      () => `${cap(c.pick(V.tech))} keeps the ${c.pick(V.thing)}; ${c.pick(V.tech)} only caches ${c.pick(V.thing)}.`,
      () => `Watch for ${c.pick(V.symptom)} ${c.pick(V.symptom)} on the ${component} dashboard.`,
      () => `We chose this for ${c.pick(V.reason)} and ${c.pick(V.reason)}.`,
      () =>
        `See ${component.toUpperCase()}-${100 + c.int(9000)} and ` +
        `\`${c.pick(V.symbolPart)}${cap(c.pick(V.symbolPart))}\` for the ` +
        `details.`,
      () => `Measured ${10 + c.int(990)} ms p99 before and ${1 + c.int(200)} ms after.`,
    ];
    return templates[c.int(templates.length)]();
  }

  paragraph(component: string, sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence(component)).join(' ');
  }

  /** Markdown of roughly `bytes` bytes: a title, sections with paragraphs, lists and code. */
  markdown(title: string, component: string, bytes: number): string {
    const c = this.c;
    const parts = [`# ${title}`, '', this.paragraph(component, 3), ''];
    let size = parts.join('\n').length;
    let section = 0;
    while (size < bytes) {
      section++;
      const block: string[] = [
        `## ${cap(c.pick(V.action))} ${component} ${c.pick(V.thing)} (${section})`,
        '',
        this.paragraph(component, 2 + c.int(4)),
        '',
      ];
      if (c.int(3) === 0)
        block.push(...Array.from({ length: 2 + c.int(4) }, () => `- ${this.sentence(component)}`), '');
      if (c.int(4) === 0)
        block.push(
          '```sh',
          `kubectl -n ${component} rollout restart deploy/${component}-${c.pick(V.symbolPart)}`,
          `${c.pick(V.tech)} ${c.pick(V.action)} --env ${c.pick(V.env)}`,
          '```',
          '',
        );
      if (c.int(5) === 0)
        block.push(
          `### Notes`,
          '',
          this.paragraph(component, 2),
          '',
          `Related: [${c.pick(V.component)}](../runbooks/${c.pick(V.component)}.md).`,
          '',
        );
      const text = block.join('\n');
      parts.push(text);
      size += text.length + 1;
    }
    return parts.join('\n');
  }

  terraform(component: string): string {
    const c = this.c;
    const blocks: string[] = [];
    for (let i = 0; i < 3 + c.int(6); i++) {
      const kind = [
        'aws_s3_bucket',
        'aws_iam_role',
        'aws_sqs_queue',
        'aws_db_instance',
        'aws_lambda_function',
        'kubernetes_namespace',
      ][c.int(6)];
      blocks.push(
        `resource "${kind}" "${component}_${c.pick(V.symbolPart)}_${i}" ` +
          `{\n  name = "${component}-${c.pick(V.env)}-${i}"\n  tags = {\n   ` +
          ` team    = "${component}"\n    purpose = "${c.pick(V.thing)}"\n  ` +
          `}\n}`,
      );
    }
    blocks.push(
      `variable "${component}_${c.pick(V.symbolPart)}" {\n  type    = string\n  default = "${c.pick(V.tech)}"\n}`,
    );
    blocks.push(
      `module "${component}_${c.pick(V.thing).replace(/\s/g, '_')}" {\n ` +
        ` source = "../modules/${c.pick(V.component)}"\n  env    = ` +
        `"${c.pick(V.env)}"\n}`,
    );
    return blocks.join('\n\n') + '\n';
  }

  manifest(component: string): string {
    const c = this.c;
    return [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${component}-${c.pick(V.symbolPart)}`,
      `  namespace: ${component}`,
      'spec:',
      `  replicas: ${1 + c.int(6)}`,
      '  template:',
      '    spec:',
      '      containers:',
      `        - name: ${component}`,
      `          image: registry.example/${component}:${1 + c.int(9)}.${c.int(20)}.${c.int(50)}`,
      '          env:',
      ...Array.from(
        { length: 2 + c.int(6) },
        () =>
          `            - name: ` +
          `${c.pick(V.symbolPart).toUpperCase()}_${c.pick(V.thing).split(' ')[0].toUpperCase()}\n ` +
          `             value: "${c.pick(V.tech)}"`,
      ),
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${component}`,
      'spec:',
      `  ports:\n    - port: ${1000 + c.int(9000)}`,
      '',
    ].join('\n');
  }

  chartValues(component: string): string {
    const c = this.c;
    return [
      `replicaCount: ${1 + c.int(5)}`,
      'image:',
      `  repository: registry.example/${component}`,
      `  tag: "${c.int(9)}.${c.int(9)}"`,
      `# ${this.sentence(component)}`,
      `${c.pick(V.symbolPart)}:`,
      `  ${c.pick(V.symbolPart)}: ${c.pick(V.tech)}`,
      '',
    ].join('\n');
  }

  dockerfile(component: string): string {
    const c = this.c;
    return [
      `FROM node:20-alpine AS build`,
      `WORKDIR /app`,
      `COPY package*.json ./`,
      `RUN npm ci`,
      `COPY . .`,
      `RUN npm run build -- --${c.pick(V.symbolPart)}`,
      `FROM node:20-alpine`,
      `ENV ${component.toUpperCase()}_MODE=${c.pick(V.env)}`,
      `COPY --from=build /app/dist /app`,
      `CMD ["node", "/app/${component}.js"]`,
      '',
    ].join('\n');
  }

  workflow(component: string): string {
    const c = this.c;
    return [
      `name: ${component} ci`,
      'on: [push, pull_request]',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      `      - run: npm test -- --grep ${c.pick(V.symbolPart)}`,
      `      - run: ./scripts/${c.pick(V.action)}.sh ${c.pick(V.env)}`,
      '',
    ].join('\n');
  }
}

function cap(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}

/**
 * The corpus as files, `indexedFiles` of them indexable (about 55% markdown, 45% infrastructure)
 * plus about one skipped file for every five. Deterministic for a seed.
 */
export function docsCorpus(indexedFiles: number, seed = 20260102): CorpusFile[] {
  const w = new DocWriter(seed);
  const c = w.c;
  const files: CorpusFile[] = [{ path: '.gitignore', text: 'build/\n*.log\n', indexed: false }];
  const add = (path: string, text: string, indexed = true) => files.push({ path, text, indexed });
  add(EDITED_FILE, w.markdown('Operations handbook', 'gateway', 20 * 1024));
  let n = 1;
  for (let i = 0; n < indexedFiles; i++) {
    const component = c.pick(V.component);
    const roll = c.int(100);
    const id = String(i).padStart(5, '0');
    if (roll < 12)
      add(
        `docs/adr/${id}-${c.pick(V.tech)}-for-${component}.md`,
        w.markdown(`ADR ${i}: Use ${c.pick(V.tech)} for ${component}`, component, 1024 + c.int(6 * 1024)),
      );
    else if (roll < 24)
      add(
        `docs/runbooks/${component}-${id}.md`,
        w.markdown(`Runbook: ${c.pick(V.action)} ${component} ${c.pick(V.thing)}`, component, 1024 + c.int(8 * 1024)),
      );
    else if (roll < 34)
      add(
        `docs/guides/${component}-${id}.md`,
        w.markdown(`${cap(component)} guide ${i}`, component, 2048 + c.int(18 * 1024)),
      );
    else if (roll < 40)
      add(
        `docs/postmortems/${id}-${component}-${c.pick(V.problem)}.md`,
        w.markdown(
          `Postmortem: ${component} ${c.pick(V.problem)} in ${c.pick(V.env)}`,
          component,
          1024 + c.int(5 * 1024),
        ),
      );
    else if (roll < 48)
      add(
        `services/${component}-${id}/README.md`,
        w.markdown(`${cap(component)} service ${i}`, component, 512 + c.int(4 * 1024)),
      );
    else if (roll < 55) add(`docs/notes/${id}.md`, w.markdown(`Notes on ${component}`, component, 256 + c.int(2048)));
    else if (roll < 67) add(`infra/terraform/${component}-${id}/main.tf`, w.terraform(component));
    else if (roll < 78) add(`deploy/k8s/${component}-${id}/deployment.yaml`, w.manifest(component));
    else if (roll < 86) {
      add(
        `charts/${component}-${id}/Chart.yaml`,
        `apiVersion: v2\nname: ${component}-${id}\nversion: 0.${c.int(9)}.0\n`,
      );
      n++;
      if (n < indexedFiles) add(`charts/${component}-${id}/values.yaml`, w.chartValues(component));
    } else if (roll < 93) add(`services/${component}-${id}/Dockerfile`, w.dockerfile(component));
    else add(`.github/workflows/${component}-${id}.yml`, w.workflow(component));
    n++;
    // What the index must walk past or refuse: code, dependencies, ignored build output.
    if (c.int(5) === 0) {
      const skip = c.int(3);
      if (skip === 0)
        add(
          `services/${component}-${id}/src/${c.pick(V.symbolPart)}.ts`,
          `export const ${c.pick(V.symbolPart)} = ${c.int(1000)};\n`,
          false,
        );
      else if (skip === 1)
        add(`node_modules/${c.pick(V.tech)}-${id}/README.md`, w.markdown('A dependency', component, 512), false);
      else add(`build/${id}.md`, w.markdown('Build output', component, 512), false);
    }
  }
  return files;
}

/** Writes the corpus under `dir` (a .git folder marks it as a repository root). */
export function writeCorpus(dir: string, files: CorpusFile[]): { files: number; indexed: number; bytes: number } {
  mkdirSync(join(dir, '.git'), { recursive: true });
  let bytes = 0;
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
    if (file.indexed) bytes += Buffer.byteLength(file.text);
  }
  return { files: files.length, indexed: files.filter((f) => f.indexed).length, bytes };
}
