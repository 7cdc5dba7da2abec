// Finding the store's owner: a live process (pid alive, port answering with our token) that this
// process should become a client of, instead of opening the database itself.

import { OWNER_CONNECT_HOST } from './httpOrigin';
import { isLive, readOwner, type OwnerInfo } from './ownerLock';

export interface LiveOwner {
  info: OwnerInfo;
  url: string;
}

export async function findLiveOwner(ownerFile: string, timeoutMs = 1500): Promise<LiveOwner | undefined> {
  const info = readOwner(ownerFile);
  if (!info || !info.port || !isLive(info)) return undefined;
  const url = `http://${OWNER_CONNECT_HOST}:${info.port}`;
  try {
    const response = await fetch(`${url}/health`, {
      headers: { authorization: `Bearer ${info.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return response.ok ? { info, url } : undefined;
  } catch {
    return undefined;
  }
}
