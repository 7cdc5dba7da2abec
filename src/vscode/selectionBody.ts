// The body "Remember Selection as …" starts a record with: the selected code in a fence tagged
// with its language, or the selection as it is when it is Markdown already — from a Markdown page,
// or holding fences of its own (a README excerpt, a heredoc of docs). Its own fences are kept and
// never nested in another one, which would close early and turn what follows into code.

const PROSE = new Set(['markdown', 'mdx', 'plaintext']);
const FENCE_LINE = /^\s{0,3}(`{3,}|~{3,})/m;

export function selectionBody(selected: string, languageId: string): string | undefined {
  if (!selected.trim()) return undefined;
  if (PROSE.has(languageId) || FENCE_LINE.test(selected)) return `${selected.replace(/\s+$/, '')}\n`;
  return `\`\`\`${languageId}\n${selected.replace(/\n$/, '')}\n\`\`\`\n`;
}
