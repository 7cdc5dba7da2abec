// Classification of a workspace file into a DocKind from its path and its content: front matter,
// the headings an ADR or postmortem has, procedural steps, resource blocks, apiVersion/kind,
// template syntax. Rules name structures, never a particular repository's files. A line-anchored
// pattern matches indentation with [ \t], never \s: `^\s*` would run on across blank lines from
// every line start, quadratic on a file of newlines.

import { atxHeadings } from './headings';
import type { DocKind } from './kinds';
import { procedureShape, type ProcedureShape } from './procedure';

export interface ClassifyContext {
  /** Folders that hold a Chart.yaml: files under them belong to a Helm chart. */
  chartRoots: ReadonlySet<string>;
  /** READMEs that are a page's GitHub twin (pageReadmesOf): classified by content like any page. */
  pageReadmes?: ReadonlySet<string>;
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

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * Whether a folder holding the path is a chart root. The path's own folders are looked up, never
 * the roots walked: a repository has a chart per service, so a walk per file grew the index as N².
 */
function inChart(path: string, ctx: ClassifyContext): boolean {
  if (ctx.chartRoots.has('')) return true;
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1))
    if (ctx.chartRoots.has(path.slice(0, i))) return true;
  return false;
}

function headings(text: string): string[] {
  return atxHeadings(text).map((h) => h.text.toLowerCase());
}

function hasHeading(hs: string[], pattern: RegExp): boolean {
  return hs.some((h) => pattern.test(h));
}

function frontMatter(text: string): Record<string, string> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return {};
  return Object.fromEntries(
    [...match[1].matchAll(/^([A-Za-z_-]+):\s*(.*)$/gm)].map((m) => [
      m[1].toLowerCase(),
      m[2].trim().replace(/^["']|["']$/g, ''),
    ]),
  );
}

const PLACEHOLDER =
  /\{[A-Za-z][^{}\n]{2,80}\}|\[(short )?(title|name|description)[^\]\n]*\]|\bNNNN\b|\bYYYY-MM-DD\b|<!--[^>]*(optional|replace|fill)/i;

/** A folder that is a skeleton to copy: `NNNN-kep-template/`, `0000-cloud-provider-template/`. */
const TEMPLATE_FOLDER = /(^|\/)[^/]*[-_]template\//;

/**
 * "Template" in the languages decision-record collections are kept in (plantillas/, modèles/,
 * templedi/, şablonu, テンプレート...). A letter after the word ends the match (`templates`, never
 * `templateFoo`); non-ASCII letters have no \b, hence the explicit edges.
 */
const TEMPLATE_WORD = new RegExp(
  '(^|[^a-z])(templates?|templedi|templed|plantillas?|mod[eè]les?|vorlagen?|sjablonen?' +
    '|szablon[a-zy]*|şablon[a-zıu]*)(?![a-z])|テンプレート|템플릿|模板',
);

/**
 * One template, in the singular: a page titled "Decision record template" is the skeleton itself;
 * one titled "ExternalSecrets templates" or "Editing makefile templates" explains a folder of them.
 */
const ONE_TEMPLATE = new RegExp(
  '(^|[^a-z])(template|templed|plantilla|mod[eè]le|vorlage|sjabloon|szablon|şablon[uı]?)(?![a-zıu])' +
    '|テンプレート|템플릿|模板',
);

/** The title a page shows: its front-matter title, else its first heading. */
function pageTitle(text: string, hs: string[]): string {
  const fmTitle = /^---\r?\n[^]{0,2000}?^title:[ \t]*["']?(.+?)["']?[ \t]*$/m.exec(text.slice(0, 2000))?.[1] ?? '';
  return (fmTitle || hs[0] || '').toLowerCase();
}

function isInTemplateFolder(lower: string): boolean {
  return lower
    .split('/')
    .slice(0, -1)
    .some((folder) => TEMPLATE_WORD.test(folder));
}

/** A page whose body is nothing but bulleted links (an index of other pages). */
function isLinkList(text: string): boolean {
  const body = text
    .replace(/^---\r?\n[\s\S]*?\r?\n---/, '')
    .split('\n')
    .filter((l) => l.trim() && !/^[ \t]*#/.test(l));
  return body.length >= 2 && body.every((l) => /^[ \t]*[-*+][ \t]+\[[^\]\n]*\]\([^)\n]*\)[ \t]*$/.test(l));
}

/** Skeleton documents: a template folder or file name, a GitHub issue/PR template, placeholder titles. */
function isTemplate(lower: string, lname: string, text: string): boolean {
  if (/(^|\/)\.github\/(issue_template|pull_request_template|discussion_template)/.test(lower)) return true;
  if (/^(pull_request_template|issue_template)(\.|$)/.test(lname)) return true;
  if (/(^|[-_. ])templates?([-_. ]|$)/.test(lname.replace(/\.[^.]+$/, ''))) return true;
  if (TEMPLATE_FOLDER.test(lower)) return true;
  // In a template folder, a file with placeholders to fill in (not one that only describes them).
  const inTemplateFolder = isInTemplateFolder(lower);
  if (inTemplateFolder && !/^readme([-_.]|$)/.test(lname) && PLACEHOLDER.test(text)) return true;
  // In a template folder, a page whose title says it is one template (its README too); a page that
  // only lists links is the folder's index of templates, not one.
  if (inTemplateFolder && ONE_TEMPLATE.test(pageTitle(text, headings(text))) && !isLinkList(text)) return true;
  // A first heading that is all placeholder: `# NUMBER. TITLE`, `# {short title}`, `# [short title ...]`.
  const title = /^#\s+(.+)$/m.exec(text)?.[1].trim() ?? '';
  return /^(\{[^}]+\}|\[[^\]]*(title|name)[^\]]*\]|(number|nnnn)\.?\s+title)$/i.test(title);
}

const RFC_HEADINGS = [
  /\bmotivation\b/,
  /\b(detailed )?design\b|\bproposal\b/,
  /\bdrawbacks?\b/,
  /\balternatives?\b/,
  /\bunresolved questions?\b|\bnon-goals\b/,
];

/** Sections an enhancement proposal (KEP and the like) has besides the RFC ones. */
const PROPOSAL_HEADINGS = [
  ...RFC_HEADINGS,
  /\bgoals\b/,
  /\bgraduation criteria\b|\btest plan\b/,
  /\bimplementation history\b|\brelease signoff checklist\b/,
];

/**
 * Nygard's sections (status, context, decision, consequences), MADR's (considered options,
 * decision drivers) and Tyree and Akerman's (issue, implications), in English and in the languages
 * ADR collections are translated into. Words that end in a non-ASCII letter cannot use \b, so each
 * word's edges are written out.
 */
/** Any of the words, as whole words (a letter on neither side), in any script. */
function words(list: string): RegExp {
  return new RegExp(`(^|[^a-z])(${list})(?![a-z])`);
}

const DECISION_SECTIONS = [
  [/\bstatus\b/, words('estado|statut|stato|durum|statws'), /状態|ステータス|상태/],
  [
    /\bcontext\b|\bproblem\b|\bbackground\b|\bissue\b/,
    words('sorun|contexto|contexte|contesto|kontext|bağlam|arka plan|cyd-destun'),
    /背景|コンテキスト|맥락|배경/,
  ],
  [
    /\bdecision\b|\bdecided\b/,
    words('decisión|décision|decisão|decisione|entscheidung|karar|penderfyniad'),
    /決定|결정/,
  ],
  [
    /\bconsequences?\b|\bconsidered options\b|\bdecision drivers\b|\bimplications\b|\bpros and cons\b/,
    words('etkiler|consecuencias|conséquences|consequências|conseguenze|konsequenzen|sonuçlar|canlyniadau'),
    /結果|결과/,
  ],
].map((group) => new RegExp(group.map((p) => p.source).join('|')));

/** Tyree and Akerman's record has many sections beside the decision: these mark it, in English and Turkish. */
const TYREE_AKERMAN_SECTIONS = new RegExp(
  '^(issue|assumptions|constraints|positions|argument|implications' +
    '|sorun|varsayımlar|kısıtlamalar|pozisyonlar|argüman|etkiler)\\b',
);

function decisionSections(hs: string[]): number {
  return DECISION_SECTIONS.filter((p) => hasHeading(hs, p)).length;
}

/** A title that names the page a record: "Architecture Decision Record: X", "Decision record for X", "ADR-7: X". */
const RECORD_TITLE = /^(architecture )?decision record( for |:| - )|^adr[-_ ]?\d+\b|(^|[ :])karar kayd[ıi](?![a-z])/;

/**
 * The headings at the level of a record's own sections and above: the options a MADR record weighs
 * (`### Option 1`, `#### Pros`, `#### Cons`) and a long section's sub-headings are parts of a section.
 */
function outlineHeadings(text: string): string[] {
  const all = atxHeadings(text).map((h) => ({ level: h.level, text: h.text.toLowerCase() }));
  // The page title may name the kind ("Decision Records") without being one of its sections.
  // (A loop, not Math.max(...levels): a file of 100,000 headings would overflow the call's arguments.)
  let deepest = 0;
  for (const h of all.slice(1))
    if (h.level > deepest && DECISION_SECTIONS.some((p) => p.test(h.text))) deepest = h.level;
  if (!deepest) deepest = 6;
  return all.filter((h) => h.level <= deepest).map((h) => h.text);
}

/** A decision record by content, in any folder: its title says so, or its sections are mostly a record's. */
function isDecisionRecord(text: string, hs: string[]): boolean {
  const sections = decisionSections(hs);
  const title = pageTitle(text, hs);
  if (RECORD_TITLE.test(title) && !TEMPLATE_WORD.test(title)) return true;
  if (sections >= 3 && sections * 4 >= outlineHeadings(text).length) return true;
  return sections >= 3 && hs.filter((h) => TYREE_AKERMAN_SECTIONS.test(h)).length >= 4;
}

/**
 * Whether a page has a procedure in it: a command, a steps heading, or at least `least` steps and
 * instructions; with `dense`, also one in every 25 lines of text (two imperatives in an overview of
 * 130 lines are asides).
 */
function hasProcedure(shape: ProcedureShape, least = 1, dense = false): boolean {
  const told = shape.steps + shape.instructions;
  if (shape.commands >= 1 || shape.stepsHeading) return true;
  return told >= least && (!dense || told * 25 >= shape.lines);
}

function readmeKind(name: string, text: string, hs: string[]): DocKind {
  if (isDecisionRecord(text, hs)) return 'adr';
  if (PROPOSAL_HEADINGS.filter((p) => hasHeading(hs, p)).length >= 4) return 'rfc';
  // A note on a chart that names an operation ("Argo Bootstrap ... installed by Terraform") is no procedure.
  if (!hasProcedure(procedureShape(text))) return 'readme';
  if (proceduralScore(name, text, hs, false) >= 5) return 'runbook';
  // A README titled as the procedure it is ("How to upgrade", "Generating certificates for bootstrapping").
  const title = hs[0] ?? '';
  const procedureTitle = /^how to\b/.test(title) || TASK_TITLE.test(title) || new RegExp(OPERATING.source).test(title);
  if (procedureTitle && proceduralScore(name, text, hs, false) >= 2) return 'runbook';
  return 'readme';
}

/** Whether a prose document is a skeleton to copy (drift reads no references from one). */
export function isTemplateDocument(path: string, text: string): boolean {
  return isTemplate(path.toLowerCase(), baseName(path).toLowerCase(), text);
}

/** Whether a text has placeholders to fill in (`{title}`, `[short title]`, `NNNN`, `YYYY-MM-DD`). */
export function hasPlaceholders(text: string): boolean {
  return PLACEHOLDER.test(text);
}

/** Bold labels that open a line or a bullet (`**Impact**`, `- **Root cause:**`), lower-cased, as section names. */
function boldLabels(text: string): string[] {
  return [...text.matchAll(/^[ \t]*(?:[-*+][ \t]+)?\*\*([^*\n]{1,60})\*\*/gm)].map((m) => m[1].toLowerCase());
}

/** Words of prose outside front matter, headings and comment lines. */
function bodyWords(text: string): number {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---/, '');
  return body
    .split('\n')
    .filter((l) => !/^[ \t]*(#|<!--)/.test(l))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean).length;
}

/**
 * A folder named for decision records, with at most one word in front: adr/, adrs/, decisions/,
 * decision-records/, decision-log/, architecture-decision-record/, design-decisions/. A longer name
 * that ends in "decisions" is a page's own folder (guidelines-to-achieve-sustainable-decisions/).
 */
const ADR_FOLDER = /(^|\/)([a-z]+[-_ ])?(adrs?|decisions?|decision[-_ ](records?|logs?))\//;

/** Markdown and similar prose: which kind of document is it? */
function classifyProse(path: string, name: string, text: string, page = false): DocKind {
  const lower = path.toLowerCase();
  const lname = name.toLowerCase();
  const hs = headings(text);
  const fm = frontMatter(text);
  const head = text.slice(0, 4000).toLowerCase();

  if (/^(changelog|changes|history|releases?|release[-_ ]?notes)(\.|$)/.test(lname)) return 'changelog';
  // Templates (ADR, RFC/KEP, issue and pull-request templates) are skeletons, not records.
  if (isTemplate(lower, lname, text)) return 'other';
  // The index of a template collection belongs to it (other), though drift still reads its links.
  if (isInTemplateFolder(lower) && TEMPLATE_WORD.test(pageTitle(text, hs)) && isLinkList(text)) return 'other';
  // A README is a README unless its content is plainly another kind: a proposal with the RFC/KEP
  // sections, a decision record, or a procedure that does little else.
  if (/^readme([-_.]|$)/.test(lname) && !page) return readmeKind(name, text, hs);

  // Nygard's sections, and MADR's (considered options, decision drivers) in any folder.
  const decisionHeadings = decisionSections(hs);
  const adrPath = ADR_FOLDER.test(lower) || /^(adr|ADR)[-_ ]?\d+/.test(name);
  if (fm.type === 'adr') return 'adr';
  if (adrPath && (decisionHeadings >= 1 || /\bstatus\b/.test(head) || /^(adr)?[-_ ]?\d+/.test(lname))) return 'adr';
  if (isDecisionRecord(text, hs)) return 'adr';

  if (/(^|\/)rfcs?\//.test(lower) || /^rfc[-_ ]?\d+/.test(lname) || fm.type === 'rfc') return 'rfc';
  // The metadata list an RFC process asks for at the top (Rust, Python PEPs and their kin).
  if (/^[ \t]*[-*][ \t]+(start date|rfc pr|feature name|rfc number|pep):/im.test(text.slice(0, 1500))) return 'rfc';
  const rfcHeadings = RFC_HEADINGS.filter((p) => hasHeading(hs, p)).length;
  if (rfcHeadings >= 3) return 'rfc';

  const incidentPath =
    /(incident|postmortem|post-mortem|retro(spective)?s?|outages?)[-_ s]*(reports?)?\//.test(lower) ||
    /(postmortem|post-mortem|incident)/.test(lname);
  // Incident reports often mark their sections with bold labels (`- **Impact:** ...`) instead of headings.
  const sections = [...hs, ...boldLabels(text)];
  const incidentHeadings = [
    /\btimeline\b/,
    /\broot cause|\bcauses?\b/,
    /\bimpact\b/,
    /\baction items?|follow[- ]?ups?|next steps\b/,
    /\bresolution\b|\bdetection\b|\bsummary\b/,
  ].filter((p) => hasHeading(sections, p)).length;
  if ((incidentPath && incidentHeadings >= 1) || incidentHeadings >= 3) return 'postmortem';

  // An alert's page, and a page that calls itself a runbook, is one.
  if (/(^|\/)alerts\//.test(lower) || /runbook|playbook/.test(lname) || fm.type === 'runbook') return 'runbook';
  // A runbook folder holds runbooks, but a page there with no procedure at all explains (a guide).
  if (/(^|\/)(runbooks?|playbooks?|sops?)\//.test(lower))
    return hasProcedure(procedureShape(text)) ? 'runbook' : 'guide';
  // Docs sites declare a page's purpose in front matter (Diátaxis-style `type: learn`, `explanation`...).
  if (/^(learn|explanation|concept|reference|tutorial|overview)$/.test((fm.type ?? '').toLowerCase())) return 'guide';
  // A page with nothing but its title (a docs site's section index filled by the generator) says nothing.
  if (bodyWords(text) === 0) return 'other';

  // Notes and spikes, and a doc that is only an outline (short bullets, no line of prose), are
  // not guides.
  if (/(^|\/)(notes?|spikes?|scratch|drafts?)\//.test(lower)) return 'other';
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const bullets = lines.filter((l) => /^[-*+]\s/.test(l));
  // Words by spaces; for scripts written without spaces (Japanese, Chinese) about two characters a word.
  const wordsOf = (l: string) =>
    Math.max(l.split(/\s+/).length, Math.floor((l.match(/[\u0080-\uffff]/g) ?? []).length / 2));
  const proseLines = lines.filter((l) => !/^([-*+#>|]|\d+[.)]|```)/.test(l) && wordsOf(l) >= 8).length;
  const bulletWords = bullets.reduce((n, l) => n + wordsOf(l) - 1, 0) / Math.max(1, bullets.length);
  if (proseLines === 0 && bullets.length >= 5 && bulletWords < 8) return 'other';

  // Design and architecture write-ups describe upgrades and migrations without being procedures.
  const explaining = /(^|\/)(architecture|design|designs|concepts?|explanations?)\//.test(lower);
  // The vocabulary of operating counts only where there are steps to take: an overview of the
  // monitoring in place mentions restarts and upgrades without telling anyone to do one.
  if (proceduralScore(name, text, hs) >= (explaining ? 4 : 2) && hasProcedure(procedureShape(text), 2, true))
    return 'runbook';
  return 'guide';
}

/**
 * Procedures read as runbooks: the vocabulary of operating a system (upgrade, recover, resize,
 * provision, rollback...) in the title and the text, ordered steps, and commands to run.
 */
const OPERATING =
  /\b(upgrad\w*|recover\w*|restor\w*|resiz\w*|provision\w*|bootstrap\w*|rollback|roll back|failover|fail over|outage|drain\w*|rotat\w*|initiali[sz]\w*|activat\w*|decommission\w*|destroy\w*|migrat\w*|rebuild\w*|set(ting)? up|purg\w*|clear\w*|flush\w*|restart\w*|reboot\w*|republish\w*|re-?sync\w*|reindex\w*|redeploy\w*|disabl\w*|re-enabl\w*|revok\w*)\b/g;

/** A task title that starts with an operation done to a running system: "Deploy a banner", "Remove a change note". */
const TASK_TITLE = /^(how to )?(deploy|remove|delete|prevent|boost|demote|retry|fix|repair|revert|reset)\b/;

const OPERATING_STEP = new RegExp(
  `^[ \\t]*\\d+[.)][ \\t]+(${OPERATING.source.slice(3, -3)}|roll|remove|delete|revoke|deploy|scale|restart)\\b`,
  'gim',
);

function proceduralScore(name: string, text: string, hs: string[], stepsName = true): number {
  // A page title a template fills from front matter counts as the first heading.
  const fmTitle = /^---\r?\n[\s\S]*?^title:\s*["']?(.+?)["']?\s*$/m.exec(text.slice(0, 2000))?.[1] ?? '';
  const title = (fmTitle + ' ' + (hs[0] ?? '') + ' ' + name.replace(/[-_.]/g, ' ')).toLowerCase();
  // A page whose sections mostly install tools is setup instructions (a guide), whatever it installs.
  const installs = hs.filter((h) => /^install/.test(h)).length;
  if (installs >= 2 && installs * 2 >= hs.length) return 0;
  const numbered = (text.match(/^[ \t]*\d+[.)][ \t]+\S/gm) ?? []).length;
  const codeBlocks = (text.match(/^```/gm) ?? []).length / 2;
  const shellLines = (
    text.match(/^[ \t]*(\$ |kubectl |aws |gds |helm |terraform |fly |git |make |docker |curl |ssh )/gm) ?? []
  ).length;
  const opsWords = (text.toLowerCase().match(OPERATING) ?? []).length;
  const words = text.split(/\s+/).length;
  const stepHeadings = hs.filter((h) => /^(step|stage|phase)\b|\b(step|stage) \d/.test(h)).length;
  const procedureHeadings = hs.filter((h) =>
    /\b(procedure|prerequisites|pre-requisites|rollback|verify|verification|troubleshoot)/.test(h),
  ).length;
  // Numbered steps that each start with an operation ("2. Restart the pods") name it as a title would
  // (not in a README, where a tear-down list closes a usage section).
  const operatingSteps = stepsName ? (text.match(OPERATING_STEP) ?? []).length : 0;
  // A procedure set off by an alert, an incident or an expiry names its occasion as a title would.
  const shape = procedureShape(text);
  const titled =
    new RegExp(`${OPERATING.source}|\\bupdat\\w*`).test(title) ||
    TASK_TITLE.test((fmTitle || hs[0] || '').toLowerCase()) ||
    operatingSteps >= 2 ||
    (stepsName && shape.triggered && shape.steps >= 3);
  // Numbered steps, commands and a prerequisites section are what every how-to has; a runbook also
  // names the operation (its title) or talks about operating (the vocabulary, or stages of a change).
  if (!titled && opsWords < 5 && stepHeadings < 2) return 0;
  let score = 0;
  if (titled) score += 2;
  if (opsWords >= 5) score += 1;
  // Dense vocabulary (one word in eighty) is what a procedure reads like, not a page that mentions upgrades.
  if (opsWords >= 5 && opsWords * 80 >= words) score += 1;
  if (stepHeadings >= 2) score += 2;
  if (numbered >= 5) score += 1;
  if (codeBlocks >= 3 || shellLines >= 4) score += 1;
  if (procedureHeadings >= 1) score += 1;
  return score;
}

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

function classifyYaml(path: string, name: string, text: string, ctx: ClassifyContext): DocKind {
  const lower = path.toLowerCase();
  const lname = name.toLowerCase();
  if (
    /(^|\/)\.github\/workflows\//.test(lower) ||
    /^\.gitlab-ci\.ya?ml$|^azure-pipelines\.ya?ml$|^\.travis\.ya?ml$|^bitbucket-pipelines\.ya?ml$|^cloudbuild\.ya?ml$/.test(
      lname,
    ) ||
    /(^|\/)\.(circleci|buildkite)\//.test(lower) ||
    isGitHubAction(lname, text)
  )
    return 'ci';
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
  // Concourse pipelines and tasks; GitHub-style workflows outside .github (templated or not).
  if (
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

export function classify(path: string, text: string, ctx: ClassifyContext = { chartRoots: new Set() }): DocKind {
  const name = baseName(path);
  const lname = name.toLowerCase();
  const ext = extension(name);
  const lower = path.toLowerCase();

  if (lname === 'dockerfile' || lname.startsWith('dockerfile.') || ext === 'dockerfile' || lname === 'containerfile')
    return 'dockerfile';
  if (/^(license|licence|copying|notice)([-_.]|$)/.test(lname)) return 'other';
  if (lname === 'jenkinsfile') return 'ci';
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
  if (
    ['md', 'mdx', 'markdown', 'rst', 'adoc', 'asciidoc', 'txt'].includes(ext) ||
    lower.endsWith('.md.erb') ||
    // A docs site's page written in HTML (front matter first); without it, a partial or a layout.
    (lower.endsWith('.html.erb') && /^---\r?\n/.test(text)) ||
    /^readme$/.test(lname)
  ) {
    if (ext === 'txt' && !/^readme/.test(lname)) return 'other';
    return classifyProse(path, name, text, ctx.pageReadmes?.has(path) ?? false);
  }
  if (CONFIG_NAMES.has(lname) || CONFIG_EXTENSIONS.has(ext) || (lname.startsWith('.') && !ext)) return 'config';
  if (CODE_EXTENSIONS.has(ext)) return 'code';
  if (ext === 'json') return 'config';
  if (!ext && /^#!/.test(text)) return 'code';
  if (/^\s*[{[]/.test(text) && /^\s*[{[][\s\S]*[}\]]\s*$/.test(text.slice(0, 100000))) return 'config';
  return 'other';
}

/**
 * READMEs that are the GitHub copy of a page: a folder-per-page site keeps `index.md` (the site's
 * page) and `README.md` (what GitHub shows for the folder) side by side and nothing else. Such a
 * README introduces no folder of other files; it is the page, and its content says what it is.
 */
export function pageReadmesOf(paths: Iterable<string>): Set<string> {
  const folders = new Map<string, { readme?: string; index: boolean; other: boolean }>();
  const entry = (folder: string) =>
    folders.get(folder) ?? folders.set(folder, { index: false, other: false }).get(folder)!;
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    const name = path.slice(slash + 1).toLowerCase();
    const here = entry(folder);
    if (/^readme\.(md|markdown|mdx|rst)$/.test(name)) here.readme = path;
    else if (/^index\.(md|markdown|mdx|rst|html\.md)$/.test(name)) here.index = true;
    else if (!name.startsWith('.')) here.other = true;
    // A subfolder is something to introduce: mark every ancestor.
    for (let up = folder; up !== '';) {
      const cut = up.lastIndexOf('/');
      up = cut < 0 ? '' : up.slice(0, cut);
      entry(up).other = true;
    }
  }
  const pages = new Set<string>();
  for (const { readme, index, other } of folders.values()) if (readme && index && !other) pages.add(readme);
  return pages;
}

/** Folders holding a Chart.yaml, from the list of workspace paths. */
export function chartRootsOf(paths: Iterable<string>): Set<string> {
  const roots = new Set<string>();
  for (const path of paths) {
    if (/(^|\/)Chart\.ya?ml$/.test(path)) roots.add(path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  }
  return roots;
}
