// What makes a page read as a procedure, from its structure rather than its vocabulary: imperative
// lines (a list item, a numbered step, a sentence or a heading that opens with a verb and its
// object), instructions to the reader ("you can run ..."), commands (fenced blocks, shell prompts)
// and a trigger in the opening lines (an alert fires, a certificate expires). English function
// words tell a verb from a noun without a list of verbs: an imperative's first word is no article,
// pronoun, preposition or auxiliary, carries no -s, -ed, -ing or -ly ending, and what follows it is
// an object's determiner, a particle or markup (`code`, [a link], 'a quote').

import { atxHeadings, frontMatterTitle } from './headings';

/** Words that never open an imperative: articles, pronouns, conjunctions, prepositions, auxiliaries. */
const NOT_A_VERB = new Set(
  (
    'the a an this that these those there here it its we you they he she i our your their my his her ' +
    'if when then once after before for in on at by with from to as all each every some any no not nor ' +
    'and or but so because while where which what who whom whose how why also only now next first finally ' +
    'note see is are was were be been can could may might must should would will shall do does did has have ' +
    'more most many much other such both either neither same very just even still yet already please ' +
    'under over into onto about above below between during without within via per than'
  ).split(' '),
);

/** What follows an imperative verb: its object's determiner or a particle (`Create a rule`, `Go to ...`). */
const AFTER_VERB = new Set(
  (
    'the a an your our this that these those its their it them all any each every some one two three ' +
    'to into onto on in at for with from up down out off over back through via by as new'
  ).split(' '),
);

/** Whether a line (a list item, a step, a sentence or a heading's text) opens with an imperative. */
export function isImperative(line: string): boolean {
  // Each step is tried only when the line opens with a character it needs (most lines open with a
  // letter): the kind model asks this of every line of every page.
  let text = line;
  if (/^[ \t\-*+0-9]/.test(text)) text = text.replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/, '');
  if (text[0] === '*' || text[0] === '_') text = text.replace(/^(\*\*|__)/, '');
  if (text[0] === '[') text = text.replace(/^\[([^\]\n]*)\]\([^)\n]*\)/, '$1');
  if (/^[tnfaoTNFAO]/.test(text)) text = text.replace(/^(then|next|finally|now|first|also|optionally)[, ]+/i, '');
  const match = /^([A-Za-z][a-z]+)(?:[ \t]+|(?=[`'"[*(<]))(\S+)/.exec(text);
  if (!match) return false;
  const verb = match[1].toLowerCase();
  if (NOT_A_VERB.has(verb)) return false;
  if (/ing$|ly$/.test(verb) || (/s$/.test(verb) && !/ss$/.test(verb)) || (/ed$/.test(verb) && !/eed$/.test(verb)))
    return false;
  if (/^[`'"[*(<]/.test(match[2])) return true;
  return AFTER_VERB.has(match[2].toLowerCase().replace(/[^a-z]/g, ''));
}

/** A sentence that tells the reader what to do: "you can run ...", "you'll need to restart ...". */
const INSTRUCTION =
  /\byou(?: can| could| need to| must| should| have to| will need to| may need to|'ll need to) [a-z]/i;

/**
 * What sets a procedure off, in its opening lines: a condition on an alert, an incident, an outage,
 * an expiry ("When a certificate is about to expire", "in case of ... incident", "This alert fires").
 */
const TRIGGER =
  /\b(when|whenever|if|in case|this|these)\b[^.\n]{0,120}?\b(alerts?|alerted|alerting|incidents?|outages?|expir\w*|paged)\b/i;

export interface ProcedureShape {
  /** Imperative lines: list items, numbered steps, sentences at a line's start, headings. */
  steps: number;
  /** Lines that tell the reader what to do without an imperative. */
  instructions: number;
  /** Fenced code blocks and shell-prompt lines. */
  commands: number;
  /** A heading that names steps or a resolution ("Potential resolution steps", "Procedure"). */
  stepsHeading: boolean;
  /** The lines before the first heading name what triggers the procedure (an alert, an expiry). */
  triggered: boolean;
  /** Lines of text outside code and headings. */
  lines: number;
}

export function procedureShape(text: string): ProcedureShape {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---/, '');
  let fenced = false;
  let blocks = 0;
  let steps = 0;
  let instructions = 0;
  let prompts = 0;
  let lines = 0;
  for (const line of body.split('\n')) {
    if (/^[ \t]*(```|~~~)/.test(line)) {
      fenced = !fenced;
      if (fenced) blocks++;
      continue;
    }
    if (fenced) {
      if (/^[ \t]*\$ \S/.test(line)) prompts++;
      continue;
    }
    if (line.startsWith('#') || !line.trim()) continue;
    lines++;
    if (isImperative(line)) steps++;
    else if (INSTRUCTION.test(line)) instructions++;
  }
  // A title a template fills from front matter ("Prevent an unhelpful suggestion") is a heading too.
  const fmTitle = frontMatterTitle(text.slice(0, 2000));
  const headings = [...(fmTitle ? [fmTitle] : []), ...atxHeadings(body).map((h) => h.text)];
  steps += headings.filter((h) => isImperative(h)).length;
  // The opening: the first lines of prose, past a title.
  const opening = body
    .split('\n', 40)
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .slice(0, 600);
  return {
    steps,
    instructions,
    commands: blocks + prompts,
    stepsHeading: headings.some((h) => /\b(steps?|procedure|resolution|how to|instructions)\b/i.test(h)),
    triggered: TRIGGER.test(opening),
    lines,
  };
}
