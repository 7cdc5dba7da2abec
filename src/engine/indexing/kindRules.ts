// The kinds that are definitions, not judgement (KINDS.md): a Dockerfile is a Dockerfile, `.tf` is
// Terraform, `.github/workflows/*.yml` is CI, a chart's files are Helm, apiVersion + kind is a
// Kubernetes manifest, a role's tasks are Ansible, a licence is `other`. Every file that is not a
// prose page gets its kind here; prose pages go to the model (kindModel.ts) unless their name
// defines them (a CHANGELOG, a licence, an issue template). A line-anchored pattern matches
// indentation with [ \t], never \s: `^\s*` would run on across blank lines from every line start,
// quadratic on a file of newlines.

import type { DocKind } from '../model/kinds';
import { ancestors, baseName, dirName, extension } from '../text/paths';

export interface RuleContext {
  /** Folders that hold a Chart.yaml: files under them belong to a Helm chart. */
  chartRoots: ReadonlySet<string>;
}

const CODE_EXTENSIONS = new Set([
  'go',
  'py',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'rb',
  'java',
  'kt',
  'scala',
  'rs',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'php',
  'swift',
  'm',
  'rego',
  'mk',
  'proto',
  'jsonnet',
  'libsonnet',
  'html',
  'htm',
  'sh',
  'bash',
  'zsh',
  'ps1',
  'lua',
  'pl',
  'ex',
  'exs',
  'erl',
  'clj',
  'groovy',
  'sql',
  'r',
  'dart',
  'vue',
  'svelte',
  // A docs site's partials and layouts (its pages are prose: classify() takes them first).
  'erb',
]);
const CONFIG_EXTENSIONS = new Set([
  'toml',
  'ini',
  'cfg',
  'conf',
  'properties',
  'env',
  'editorconfig',
  'lock',
  'sum',
  'mod',
  'xml',
  'plist',
  'backend',
]);
const CONFIG_NAMES = new Set([
  '.editorconfig',
  '.gitignore',
  '.gitattributes',
  '.dockerignore',
  '.npmignore',
  '.terraform-version',
  '.nvmrc',
  '.node-version',
  '.tool-versions',
  '.ruby-version',
  '.python-version',
  'brewfile',
  'gemfile',
  'project',
  'version',
  'procfile',
  '.helmignore',
  'gopkg.toml',
  'go.mod',
  'go.sum',
  'package.json',
  'tsconfig.json',
  'kubeconfig',
  'codeowners',
  '.prettierrc',
  '.eslintrc',
  'owners',
  'owners_aliases',
]);

/**
 * Whether a folder holding the path is a chart root. The path's own folders are looked up, never
 * the roots walked: a repository has a chart per service, so a walk per file grew the index as N².
 */
function inChart(path: string, ctx: RuleContext): boolean {
  if (ctx.chartRoots.has('')) return true;
  return ancestors(path).some((dir) => ctx.chartRoots.has(dir));
}

/** A folder that is a skeleton to copy: `NNNN-kep-template/`, `0000-cloud-provider-template/`. */
const TEMPLATE_FOLDER = /(^|\/)[^/]*[-_]template\//;

const RELEASE_NOTES_FOLDER = /(^|\/)(release-?notes|changelogs?|changes|changelog\.d)\/([^/]+\/)?[^/]+\.(ya?ml|md)$/;

/** Keys only an Ansible task carries (modules and task keywords). */
const ANSIBLE_TASK =
  /^[ \t]*-?[ \t]*(ansible\.builtin\.\w+|community\.\w+\.\w+|become|when|register|notify|loop|with_items|with_dict|include_tasks|import_tasks|import_playbook|include_role|import_role|apt|yum|dnf|package|service|systemd|template|copy|lineinfile|command|shell|set_fact|get_url|debug|docker_\w+|pip|unarchive|file):/m;

/**
 * Ansible YAML: plays (hosts and tasks or roles), task and handler lists, role folders (tasks,
 * handlers, defaults, vars, meta), inventories and Galaxy requirements.
 */
function isAnsible(lower: string, lname: string, text: string): boolean {
  if (
    /^-[ \t]+(hosts|name|import_playbook):/m.test(text) &&
    /^[ \t]+(tasks|roles|pre_tasks|post_tasks|handlers):/m.test(text)
  )
    return true;
  if (
    /(^|\/)roles\/[^/]+\/(tasks|handlers|defaults|vars|meta)\//.test(lower) ||
    /(^|\/)(playbooks?|group_vars|host_vars)\//.test(lower)
  )
    return true;
  // A task list: top-level items with a name and a module or task keyword.
  if (/^- (name|hosts|import_playbook|include_tasks|import_tasks):/m.test(text) && ANSIBLE_TASK.test(text)) return true;
  // A role laid out at the repository root (tasks/main.yml next to defaults/, meta/...).
  if (
    /(^|\/)(tasks|handlers|defaults|vars)\/[^/]+\.ya?ml$/.test(lower) &&
    !/^(apiVersion|kind|platform|jobs|on):/m.test(text)
  )
    return true;
  if (/(^|\/)meta\/main\.ya?ml$/.test(lower) && /^(galaxy_info|dependencies):/m.test(text)) return true;
  if (/^requirements\.ya?ml$/.test(lname) && /^(roles|collections):/m.test(text)) return true;
  if (/^galaxy\.ya?ml$/.test(lname) && /^namespace:/m.test(text)) return true;
  // Inventory plugins (aws_ec2.yml, gcp_compute.yml...).
  return /^plugin:\s*\S*(aws_ec2|gcp_compute|azure_rm|constructed|openstack|vmware\w*|k8s)\s*$/m.test(text);
}

/**
 * Kubernetes-shaped files that a tool reads and nobody applies to a cluster: component config
 * (`*.config.k8s.io`, kubeadm), kind and k3d cluster definitions, Skaffold, IstioOperator
 * profiles for istioctl, kubeconfig (`kind: Config`).
 */
const TOOL_CONFIG_API = new RegExp(
  '^apiVersion:[ \\t]*["\']?(skaffold/|kind\\.x-k8s\\.io/|k3d\\.io/|ctlptl\\.dev/' +
    '|install\\.istio\\.io/|kubeadm\\.k8s\\.io/' +
    '|(kubelet|kubeproxy|apiserver|kubescheduler|kubecontrollermanager)\\.config\\.k8s\\.io/)',
  'm',
);

function isManifest(text: string): boolean {
  return /^apiVersion:/m.test(text) && /^kind:/m.test(text);
}

/** A GitHub Action's metadata (composite, Docker or JavaScript): steps CI runs, as a workflow's are. */
function isGitHubAction(lname: string, text: string): boolean {
  return /^action\.ya?ml$/.test(lname) && /^runs:/m.test(text) && /^[ \t]+using:/m.test(text);
}

/** Prometheus rule groups (alerting and recording rules) and promtool's unit tests of them. */
function isPrometheusRules(text: string): boolean {
  if (/^rule_files:/m.test(text) && /^tests:/m.test(text)) return true;
  return /^groups:/m.test(text) && /^[ \t]+(-[ \t]+)?(alert|record):/m.test(text) && /^[ \t]+expr:/m.test(text);
}

/**
 * CI systems' pipeline files by the names each system reads them under (KINDS.md's `ci`): GitHub
 * Actions, GitLab CI (and the files a `.gitlab-ci.yml` includes), CircleCI, Buildkite, Azure
 * Pipelines, Travis, Bitbucket, Drone, Woodpecker, Cloud Build.
 */
const PIPELINE_FILE_NAME =
  /^(\.gitlab-ci|[^/]+\.gitlab-ci|azure-pipelines(-[^/]*)?|\.travis|bitbucket-pipelines|cloudbuild|\.drone|\.woodpecker)\.ya?ml$/;
const PIPELINE_FOLDER =
  /(^|\/)(\.github\/workflows|\.circleci|\.buildkite|\.gitlab\/ci|\.woodpecker|\.tekton|\.azure-pipelines)\//;

/** Tekton's pipeline resources (Pipeline, Task, their runs) and triggers: KINDS.md names Tekton as `ci`. */
const TEKTON = /^apiVersion:[ \t]*["']?(triggers\.)?tekton\.dev\//m;

/**
 * A pipeline by its shape, wherever it is kept (a template a pipeline includes, an orb's command):
 * a top-level list of steps, jobs or stages whose first item is a CI system's step (`- script:`,
 * `- task:`, `- run:`, `- command:`, `- checkout`, `- job:`, `- stage:`…); a GitLab CI job (a
 * top-level key whose body has a `script:` and a `stage:`, `extends:`, `image:`, `rules:` or
 * `needs:`); a CircleCI config (`version: 2.1` with jobs, workflows or orbs); a Drone pipeline.
 */
const STEP_LIST =
  /^(steps|jobs|stages):[ \t]*\r?\n([ \t]*#[^\n]*\n|[ \t]*\r?\n)*[ \t]*-[ \t]+(script|task|bash|pwsh|powershell|template|checkout|job|stage|deployment|command|commands|label|wait|block|trigger|run|plugins|publish|download|group)\b/m;
const GITLAB_JOB_SCRIPT = /^[ \t]{2,}(script|before_script|after_script):/m;
const GITLAB_JOB_KEY = /^[ \t]{2,}(stage|extends|image|rules|needs|only|except|artifacts|services|environment):/m;

function isPipelineShape(text: string): boolean {
  if (STEP_LIST.test(text)) return true;
  if (/^stages:/m.test(text) && GITLAB_JOB_SCRIPT.test(text)) return true;
  if (/^[.\w][\w .:/-]*:[ \t]*$/m.test(text) && GITLAB_JOB_SCRIPT.test(text) && GITLAB_JOB_KEY.test(text)) {
    // A play or a task list is Ansible (`script:` is one of its modules), never a GitLab job.
    if (!/^-[ \t]/m.test(text)) return true;
  }
  if (/^version:[ \t]*["']?2\.1\b/m.test(text) && /^(jobs|workflows|orbs|commands|executors):/m.test(text)) return true;
  return /^kind:[ \t]*pipeline[ \t]*$/m.test(text) && /^steps:/m.test(text);
}

/** Whether a YAML file is a pipeline definition (KINDS.md's `ci`) by its name, its folder or its API. */
function isPipelineYaml(lower: string, lname: string, text: string): boolean {
  return (
    PIPELINE_FOLDER.test(lower) ||
    PIPELINE_FILE_NAME.test(lname) ||
    lname === '@orb.yml' ||
    isGitHubAction(lname, text) ||
    TEKTON.test(text)
  );
}

function classifyYaml(path: string, name: string, text: string, ctx: RuleContext): DocKind {
  const lower = path.toLowerCase();
  const lname = name.toLowerCase();
  if (isPipelineYaml(lower, lname, text)) return 'ci';
  if (/(^|\/)\.github\/(issue_template|discussion_template)\//.test(lower))
    return lname.startsWith('config.') ? 'config' : 'other';
  if (TEMPLATE_FOLDER.test(lower) || /(^|[-_.])template$/.test(lname.replace(/\.ya?ml$/, ''))) return 'other';
  if (RELEASE_NOTES_FOLDER.test(lower)) return 'changelog';
  // Data another program reads, wherever it is kept (a chart ships rule files with .Files.Glob).
  if (!/(^|\/)templates\//.test(lower) && isPrometheusRules(text)) return 'config';
  if (/^values([.-][^/]*)?\.ya?ml$/.test(lname)) return 'helm';
  // In a chart, YAML that is no manifest and no test suite is values: ci/ overrides, files/ profiles.
  if (
    inChart(path, ctx) &&
    !/(^|\/)templates\//.test(lower) &&
    !/^suite:/m.test(text) &&
    !(/^apiVersion:/m.test(text) && /^kind:/m.test(text))
  )
    return 'helm';
  if (inChart(path, ctx) && /^(chart|requirements)\.ya?ml$/.test(lname)) return 'helm';
  // Concourse pipelines and tasks; GitHub-style workflows outside .github (templated or not); the
  // pipelines other systems include from elsewhere (a manifest is never one: Argo's have scripts).
  if (
    (isPipelineShape(text) && !isManifest(text)) ||
    (/^jobs:/m.test(text) && /^[ \t]*-?[ \t]*plan:/m.test(text)) ||
    (/^platform:/m.test(text) && /^run:/m.test(text)) ||
    (/^on:/m.test(text) && /^jobs:/m.test(text) && /runs-on:/.test(text))
  )
    return 'ci';
  // Helm renders only templates/: a manifest under a chart's files/ is data another program renders.
  if (inChart(path, ctx) && /(^|\/)files\//.test(lower) && isManifest(text)) return 'kubernetes';
  if ((inChart(path, ctx) || /(^|\/)templates\//.test(lower)) && /\{\{-?[^}]{0,400}\}\}/.test(text)) return 'helm';
  if (/\{\{-?[ \t]{0,8}(\.Values|\.Release|\.Chart|include|template)\b/.test(text)) return 'helm';
  // Values kept outside a chart, in a folder named for Helm (helm-values/, helm-profiles/...).
  if (/(^|\/)helm[-_]?[a-z]*\/[^/]+$/.test(lower) && !isManifest(text)) return 'helm';
  // API descriptions (OpenAPI, Swagger) are specifications, not configuration.
  if (/^(swagger|openapi):[ \t]*["']?\d/m.test(text)) return 'other';
  if (/^AWSTemplateFormatVersion:|^\s{0,2}Type:\s*['"]?AWS::/m.test(text) && /^Resources:/m.test(text)) return 'other';
  // Ansible: plays with hosts and tasks, or files under a role's tasks/handlers.
  if (isAnsible(lower, lname, text)) return 'ansible';
  if (/^kustomization\.ya?ml$/.test(lname)) return 'kubernetes';
  if (TOOL_CONFIG_API.test(text) || /^kind:[ \t]*Config[ \t]*$/m.test(text)) return 'config';
  if (/^apiVersion:\s*\S+/m.test(text) && /^kind:\s*\S+/m.test(text)) return 'kubernetes';
  // A bare list of RBAC rules is a manifest fragment.
  if (/^-[ \t]+apiGroups:/m.test(text) && /^[ \t]+verbs:/m.test(text)) return 'kubernetes';
  return 'config';
}

/** Folders holding a Chart.yaml, from the list of workspace paths. */
export function chartRootsOf(paths: Iterable<string>): Set<string> {
  const roots = new Set<string>();
  for (const path of paths) {
    if (/(^|\/)Chart\.ya?ml$/.test(path)) roots.add(dirName(path));
  }
  return roots;
}

/** Whether a path is a prose page (the model's to judge): Markdown, reStructuredText, AsciiDoc, a README. */
export function isProsePage(path: string, text: string): boolean {
  const lower = path.toLowerCase();
  const name = baseName(lower);
  const ext = extension(name);
  return (
    ['md', 'mdx', 'markdown', 'rst', 'adoc', 'asciidoc'].includes(ext) ||
    lower.endsWith('.md.erb') ||
    // A docs site's page written in HTML (front matter first); without it, a partial or a layout.
    (lower.endsWith('.html.erb') && /^---\r?\n/.test(text)) ||
    /^readme(\.[a-z]+)?$/.test(name)
  );
}

export interface Definition {
  kind: DocKind;
  /** The definition, in plain words (what `lore index --explain` says). */
  reason: string;
}

const PROSE_DEFINITIONS: Array<[RegExp, DocKind, string]> = [
  [/(^|\/)(license|licence|copying|notice)([-_.][^/]*)?$/, 'other', 'a licence file'],
  // KINDS.md names them: CHANGELOG, CHANGES, HISTORY, NEWS, release notes, also per version
  // (CHANGELOG-1.29.md). RELEASE.md is left to the model: it is as often the release process (a guide).
  [
    /(^|\/)(changelog|changes|history|news|releases|release[-_ ]?notes)(([-_]?v?\d|\.)[^/]*)?$/,
    'changelog',
    'a changelog by name',
  ],
  [
    /(^|\/)\.github\/(issue_template|pull_request_template|discussion_template)/,
    'other',
    'a GitHub issue or PR template',
  ],
  [/(^|\/)(pull_request_template|issue_template)(\.[^/]*)?$/, 'other', 'a GitHub issue or PR template'],
];

/**
 * The kind a file has by definition, or null for a prose page whose kind is a judgement (the
 * model's). A prose page's name may still define it: a CHANGELOG, a licence, an issue template.
 */
export function definedKind(path: string, text: string, ctx: RuleContext): Definition | null {
  const lower = path.toLowerCase();
  if (isProsePage(path, text)) {
    for (const [pattern, kind, reason] of PROSE_DEFINITIONS) if (pattern.test(lower)) return { kind, reason };
    return null;
  }
  const kind = ruleKind(path, text, ctx);
  return { kind, reason: RULE_REASONS[kind] };
}

const RULE_REASONS: Record<DocKind, string> = {
  adr: 'a decision record',
  rfc: 'a proposal',
  runbook: 'a runbook',
  postmortem: 'a postmortem',
  changelog: 'release notes by folder and name',
  readme: 'a README',
  guide: 'a page',
  terraform: 'Terraform by extension and blocks',
  kubernetes: 'a manifest (apiVersion and kind, kustomization, RBAC rules)',
  helm: 'a Helm chart’s file (Chart.yaml, values, templates)',
  dockerfile: 'a Dockerfile or Containerfile by name',
  ci: 'a pipeline definition (workflows, GitLab CI, Jenkinsfile, Concourse…)',
  ansible: 'Ansible (plays, roles, inventories)',
  config: 'tool or data configuration by name, extension or shape',
  code: 'source code or a script by extension',
  other: 'a file none of the definitions covers (data, a licence, a template)',
};

/**
 * A Jenkins pipeline: a Jenkinsfile however named (`Jenkinsfile.release`, `deploy.jenkinsfile`), or
 * Groovy that declares one (`pipeline {` with its stages, or a scripted `node { stage(…) }`).
 */
function isJenkinsPipeline(lname: string, ext: string, text: string): boolean {
  if (/^jenkinsfile([-_.][^/]*)?$|[-_.]jenkinsfile$/.test(lname)) return true;
  if (ext !== 'groovy' && ext !== 'jenkins') return false;
  if (ext === 'jenkins') return true;
  return (
    (/^[ \t]*pipeline[ \t]*\{/m.test(text) && /^[ \t]*stages[ \t]*\{/m.test(text)) ||
    (/^[ \t]*node[ \t]*(\([^)\n]{0,200}\))?[ \t]*\{/m.test(text) && /^[ \t]*stage[ \t]*\(/m.test(text))
  );
}

/** The definitions for files that are not prose pages. */
function ruleKind(path: string, text: string, ctx: RuleContext): DocKind {
  const name = baseName(path);
  const lname = name.toLowerCase();
  const ext = extension(name);
  const lower = path.toLowerCase();

  if (lname === 'dockerfile' || lname.startsWith('dockerfile.') || ext === 'dockerfile' || lname === 'containerfile')
    return 'dockerfile';
  if (/^(license|licence|copying|notice)([-_.]|$)/.test(lname)) return 'other';
  // A plain-text changelog (NEWS, CHANGES, HISTORY.txt): the same definition as a Markdown one.
  if (/^(changelog|changes|history|news|releases|release[-_ ]?notes)(\.txt)?$/.test(lname)) return 'changelog';
  if (isJenkinsPipeline(lname, ext, text)) return 'ci';
  if (ext === 'tf' || ext === 'tfvars') return 'terraform';
  // HCL is Terraform (or Terragrunt) only with its blocks; .tflint.hcl, Packer and bake files are tool config.
  if (ext === 'hcl')
    return /\.pkr\.hcl$/.test(lname) ||
      /^(target|group)\s+"/m.test(text) ||
      !/^[ \t]*(resource|module|variable|output|provider|terraform|data|locals|include|inputs)\b/m.test(text)
      ? 'config'
      : 'terraform';
  // A Jinja or Go template (Terraform's templatefile() inputs) is the kind of what it renders: code,
  // or else configuration.
  if (['j2', 'jinja', 'jinja2', 'tmpl', 'tftpl'].includes(ext))
    return CODE_EXTENSIONS.has(extension(name.slice(0, -ext.length - 1))) ? 'code' : 'config';
  if (
    /^(inventory|hosts)([-_.][^/]*)?$/.test(lname) &&
    !['md', 'yml', 'yaml', 'json'].includes(ext) &&
    /^\[[\w:-]+\]\s*$/m.test(text)
  )
    return 'ansible';
  if (ext === 'ini' && /\bansible_(host|user|connection|ssh\w*|port)=/.test(text)) return 'ansible';
  if (inChart(path, ctx) && /^values\.schema\.json$/.test(lname)) return 'helm';
  if (
    inChart(path, ctx) &&
    (ext === 'tpl' || (lname === 'notes.txt' && /(^|\/)templates\//.test(lower)) || lname === 'requirements.lock')
  )
    return 'helm';
  if (/^(makefile|gnumakefile|vagrantfile|rakefile|justfile)$/.test(lname)) return 'code';
  if (ext === 'yaml' || ext === 'yml') return classifyYaml(path, name, text, ctx);
  if (ext === 'txt') return 'other';
  if (CONFIG_NAMES.has(lname) || CONFIG_EXTENSIONS.has(ext) || (lname.startsWith('.') && !ext)) return 'config';
  if (CODE_EXTENSIONS.has(ext)) return 'code';
  if (ext === 'json') return 'config';
  if (!ext && /^#!/.test(text)) return 'code';
  if (/^\s*[{[]/.test(text) && /^\s*[{[][\s\S]*[}\]]\s*$/.test(text.slice(0, 100000))) return 'config';
  return 'other';
}
