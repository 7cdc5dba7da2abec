// The baseline the classifier must beat: a document kind from the path and extension alone, the
// rule a person would write in a minute (folder names, file names, extensions). The evaluation
// prints its accuracy next to the classifier's so a content rule that scores below it shows.

import type { DocKind } from '../src/engine/model/kinds';

export function pathOnlyKind(path: string): DocKind {
  const lower = path.toLowerCase();
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  if (/^(dockerfile|containerfile)/.test(name) || ext === 'dockerfile') return 'dockerfile';
  if (['tf', 'hcl', 'tfvars'].includes(ext)) return 'terraform';
  if (/(^|\/)\.github\/workflows\//.test(lower) || name === 'jenkinsfile' || name === '.gitlab-ci.yml') return 'ci';
  if (/^(changelog|changes|history|releases?)(\.|$)/.test(name)) return 'changelog';
  if (/^readme(\.|$)/.test(name)) return 'readme';
  const prose = ['md', 'mdx', 'markdown', 'rst', 'adoc', 'erb'].includes(ext);
  if (prose) {
    if (/(^|\/)(adrs?|decisions?|decision-records?)\//.test(lower)) return 'adr';
    if (/(^|\/)(rfcs?|keps?|text)\//.test(lower)) return 'rfc';
    if (/(^|\/)(runbooks?|playbooks?)\//.test(lower)) return 'runbook';
    if (/(^|\/)(incidents?|postmortems?)\//.test(lower)) return 'postmortem';
    return 'guide';
  }
  if (ext === 'yaml' || ext === 'yml') {
    if (/(^|\/)(charts?)\//.test(lower) || /^values/.test(name) || name === 'chart.yaml') return 'helm';
    if (/(^|\/)(roles|playbooks?|tasks|handlers)\//.test(lower)) return 'ansible';
    if (/(^|\/)(k8s|kubernetes|manifests?|deploy)\//.test(lower)) return 'kubernetes';
    return 'config';
  }
  if (['json', 'toml', 'ini', 'cfg', 'conf', 'lock', 'mod', 'sum'].includes(ext) || name.startsWith('.'))
    return 'config';
  if (['go', 'py', 'js', 'ts', 'rb', 'sh', 'java', 'rs', 'tpl'].includes(ext) || name === 'makefile') return 'code';
  return 'other';
}
