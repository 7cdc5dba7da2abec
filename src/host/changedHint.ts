// A client's "check these paths now" (POST /changed, the owner's token only): the editor says which
// files a person just saved or renamed, and the owner gives them its one reaction to a file change
// (index, then drift: ownerWatch.ts), whose outcome every subscriber hears on /events. The body is
// checked here, before anything is touched: a list of workspace-relative paths that stay inside.

import { LoreError, type ErrorCode } from '../engine';
import { fetchWithDeadline } from './ownerRequest';
import { workspaceRelative } from './workspacePath';

/** More than a Save All of a large workspace sends; a longer list is refused, not cut. */
export const MAX_CHANGED_PATHS = 1000;
/** Taking a hint is instant (the work it starts is not waited for); a busy owner answers between batches. */
const HINT_DEADLINE_MS = 10_000;

/** The workspace-relative paths `body.paths` names, or INVALID_INPUT saying which field is wrong and why. */
export function changedPaths(body: unknown, root: string): string[] {
  const paths = (body as { paths?: unknown } | null)?.paths;
  if (!Array.isArray(paths) || paths.length === 0)
    throw new LoreError('INVALID_INPUT', 'paths: expected a non-empty list of workspace-relative file paths');
  if (paths.length > MAX_CHANGED_PATHS)
    throw new LoreError('INVALID_INPUT', `paths: at most ${MAX_CHANGED_PATHS} at a time (got ${paths.length})`);
  const out = new Set<string>();
  paths.forEach((requested: unknown, i) => {
    const rel = workspaceRelative(root, requested);
    if ('refusal' in rel)
      throw new LoreError(
        'INVALID_INPUT',
        `paths[${i}]: ${rel.refusal === 'outside' ? 'not inside the workspace' : 'not a file path'}`,
      );
    out.add(rel.path);
  });
  return [...out];
}

/** Tells the owner at `url` (its base URL) that `paths` changed; resolves once it has taken them. */
export async function hintChanged(url: string, token: string, paths: readonly string[]): Promise<void> {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ paths }),
  };
  const read = async (response: Response) => ({
    status: response.status,
    payload: (await response.json().catch(() => ({}))) as { error?: { code: string; message: string } },
  });
  const { status, payload } = await fetchWithDeadline(`${url}/changed`, init, HINT_DEADLINE_MS, 'a change hint', read);
  if (payload.error) throw new LoreError(payload.error.code as ErrorCode, payload.error.message);
  if (status !== 202)
    throw new LoreError('STORE_UNAVAILABLE', `the store owner answered HTTP ${status} to a change hint`);
}
