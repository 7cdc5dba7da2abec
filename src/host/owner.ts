// Finding the store's owner: a live process (pid alive, port answering with our token) that this
// process should become a client of, instead of opening the database itself.

import { OWNER_CONNECT_HOST } from './httpOrigin';
import { isLive, readOwner, type OwnerInfo } from './ownerLock';
import { HEALTH_DEADLINE_MS, fetchWithDeadline } from './ownerRequest';

export interface LiveOwner {
  info: OwnerInfo;
  url: string;
}

export async function findLiveOwner(ownerFile: string, timeoutMs = HEALTH_DEADLINE_MS): Promise<LiveOwner | undefined> {
  const info = readOwner(ownerFile);
  if (!info || !info.port || !isLive(info, ownerFile)) return undefined;
  const url = `http://${OWNER_CONNECT_HOST}:${info.port}`;
  try {
    const ok = await fetchWithDeadline(
      `${url}/health`,
      { headers: { authorization: `Bearer ${info.token}` } },
      timeoutMs,
      'a health check',
      async (response) => {
        await response.arrayBuffer();
        return response.ok;
      },
    );
    return ok ? { info, url } : undefined;
  } catch {
    return undefined;
  }
}

/** An owner file naming a process that is alive (answering or not): a store is there, in use. */
export function ownerRecorded(ownerFile: string): boolean {
  const info = readOwner(ownerFile);
  return info !== undefined && isLive(info, ownerFile);
}
