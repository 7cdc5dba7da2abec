// Skeleton documents (templates of ADRs, KEPs, issues and pull requests, with placeholders to fill
// in): drift reads no references from one. The kind model learns templates as `other` from its own
// signals; this is the drift side's test, kept as it was.

import { atxHeadings } from './headings';
import { baseName } from './paths';

function headings(text: string): string[] {
  return atxHeadings(text).map((h) => h.text.toLowerCase());
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

/** Whether a prose document is a skeleton to copy (drift reads no references from one). */
export function isTemplateDocument(path: string, text: string): boolean {
  return isTemplate(path.toLowerCase(), baseName(path).toLowerCase(), text);
}

/** Whether a text has placeholders to fill in (`{title}`, `[short title]`, `NNNN`, `YYYY-MM-DD`). */
export function hasPlaceholders(text: string): boolean {
  return PLACEHOLDER.test(text);
}
