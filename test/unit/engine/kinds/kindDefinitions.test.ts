// The kinds that are definitions (KINDS.md), for the CI systems other than GitHub Actions and the
// changelogs named as changelogs: each fails on the rules before issue 23's second round, which
// called an included GitLab file, a Tekton Task, a Buildkite or Azure template, a Jenkinsfile by
// another name `config`, `kubernetes` or `code`, and NEWS or CHANGELOG-1.29.md a guide.

import { strict as assert } from 'node:assert';
import { classifyKind } from '../../../../src/engine/indexing/classify';
import { definedKind } from '../../../../src/engine/indexing/kindRules';

const ctx = { chartRoots: new Set<string>() };
const defined = (path: string, text = '') => definedKind(path, text, ctx)?.kind ?? null;

describe('kinds by definition: CI systems and changelogs', () => {
  it('takes the pipeline files of GitLab, CircleCI, Buildkite, Azure, Travis, Bitbucket, Drone… by name', () => {
    for (const path of [
      '.gitlab-ci.yml',
      'templates/Docker.gitlab-ci.yml',
      '.gitlab/ci/build.yml',
      '.circleci/config.yml',
      '.buildkite/pipeline.yml',
      'azure-pipelines.yml',
      'azure-pipelines-release.yaml',
      '.travis.yml',
      'bitbucket-pipelines.yml',
      '.drone.yml',
      '.woodpecker/test.yml',
      '.tekton/pull-request.yaml',
    ])
      assert.equal(defined(path, 'key: value\n'), 'ci', path);
  });

  it('takes a pipeline by its shape anywhere: included GitLab jobs, Azure and Buildkite steps, an orb', () => {
    const gitlabInclude = '.build:\n  image: node:20\n  stage: build\n  script:\n    - npm ci\n';
    assert.equal(defined('ci/jobs/build.yml', gitlabInclude), 'ci');
    const gitlabStages = 'stages:\n  - test\n\nlint:\n  script:\n    - make lint\n';
    assert.equal(defined('pipelines/main.yml', gitlabStages), 'ci');
    const azureSteps = 'parameters:\n  - name: env\n\nsteps:\n  - task: Npm@1\n    inputs:\n      command: ci\n';
    assert.equal(defined('templates/build-steps.yml', azureSteps), 'ci');
    const azureJobs = 'jobs:\n# the build\n- job: Build\n  pool:\n    vmImage: ubuntu-latest\n';
    assert.equal(defined('eng/jobs.yml', azureJobs), 'ci');
    const buildkite = 'steps:\n  - label: ":hammer: test"\n    command: make test\n  - wait\n';
    assert.equal(defined('ci/pipeline.yml', buildkite), 'ci');
    const orbCommand = 'description: Install packages\nsteps:\n  - run:\n      name: install\n      command: npm ci\n';
    assert.equal(defined('src/commands/install-packages.yml', orbCommand), 'ci');
    assert.equal(defined('src/@orb.yml', 'version: 2.1\ndescription: node\n'), 'ci');
    const circle = 'version: 2.1\norbs:\n  node: circleci/node@5\nworkflows:\n  test:\n    jobs: [node/test]\n';
    assert.equal(defined('config/circle.yml', circle), 'ci');
    assert.equal(defined('drone/pipeline.yml', 'kind: pipeline\nname: default\nsteps:\n- name: test\n'), 'ci');
  });

  it('takes Tekton pipelines, tasks and triggers as CI, not as Kubernetes manifests', () => {
    const task = 'apiVersion: tekton.dev/v1beta1\nkind: Task\nmetadata:\n  name: lint\nspec:\n  steps: []\n';
    assert.equal(defined('tekton/lint.yaml', task), 'ci');
    const trigger = 'apiVersion: triggers.tekton.dev/v1alpha1\nkind: TriggerTemplate\nmetadata:\n  name: t\n';
    assert.equal(defined('tekton/triggers/template.yaml', trigger), 'ci');
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: dashboard\n';
    assert.equal(defined('tekton/dashboard.yaml', deployment), 'kubernetes');
  });

  it('leaves lookalikes alone: Ansible tasks with a script, Argo workflows, chart values, compose', () => {
    const tasks = '- name: run the script\n  script: files/setup.sh\n  when: ansible_os_family == "Debian"\n';
    assert.equal(defined('roles/web/tasks/main.yml', tasks), 'ansible');
    const argo =
      'apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nspec:\n  templates:\n  - name: x\n    script:\n' +
      '      image: alpine\n';
    assert.equal(defined('workflows/hello.yaml', argo), 'kubernetes');
    const values = 'job:\n  image: busybox\n  script: |\n    echo hi\n';
    assert.equal(defined('charts/x/values.yaml', values), 'helm');
    const compose = 'services:\n  web:\n    image: nginx\n    command: ["nginx"]\n';
    assert.equal(defined('docker-compose.yml', compose), 'config');
  });

  it('takes Jenkinsfiles however named, and Groovy that declares a pipeline; other Groovy stays code', () => {
    for (const path of ['Jenkinsfile', 'ci/Jenkinsfile.release', 'jenkins/deploy.jenkinsfile', 'build.Jenkinsfile'])
      assert.equal(defined(path, 'node { sh "make" }\n'), 'ci', path);
    const declarative =
      'def call(Map args) {\n  pipeline {\n    agent any\n    stages {\n      stage("b") {}\n    }\n  }\n}\n';
    assert.equal(defined('vars/standardBuild.groovy', declarative), 'ci');
    const scripted = 'node("linux") {\n  stage("Build") {\n    sh "make"\n  }\n}\n';
    assert.equal(defined('pipelines/nightly.groovy', scripted), 'ci');
    assert.equal(defined('src/org/example/Git.groovy', 'class Git {\n  def clone() {}\n}\n'), 'code');
  });

  it('takes changelogs named as KINDS.md names them, and leaves a release process to the model', () => {
    for (const path of [
      'CHANGELOG.md',
      'CHANGELOG/CHANGELOG-1.29.md',
      'docs/CHANGELOG.pre-v11.0.0.md',
      'HISTORY.rst',
      'CHANGES',
      'NEWS.md',
      'NEWS',
      'docs/about/release-notes.md',
      'RELEASE_NOTES.md',
      'RELEASES.md',
    ])
      assert.equal(defined(path, '# Changes\n'), 'changelog', path);
    assert.equal(defined('RELEASE.md', '# How to cut a release\n'), null);
    assert.equal(defined('docs/changes-to-the-api.md', '# Changes to the API\n'), null);
    assert.equal(classifyKind('NEWS.md', '# News\n').by, 'rule');
  });
});
