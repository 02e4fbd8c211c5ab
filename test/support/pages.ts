/** A client of `api()`'s shape (test/integration/harness.ts), or a retrying one: the one method used. */
interface Reader {
  get(path: string): Promise<{ status: number; headers: Record<string, string>; body: any }>;
}

/**
 * Every page of a list, following its `Link: <…>; rel="next"` header
 * (docs/api.md#cursors) until a page has none; throws on an answer that is not 200.
 */
export async function everyPage(reader: Reader, path: string): Promise<any[]> {
  const pages: any[] = [];
  for (let next: string | undefined = path; next; ) {
    const page = await reader.get(next);
    if (page.status !== 200) throw new Error(`GET ${next} answered ${page.status}`);
    pages.push(page.body);
    next = /^<([^>]+)>; rel="next"$/.exec(page.headers.link ?? '')?.[1];
  }
  return pages;
}

/** The ids of every event of the token's tenant (GET /events, every page). */
export async function everyEventId(reader: Reader): Promise<string[]> {
  const pages = await everyPage(reader, '/events?size=100');
  return pages.flatMap((page) => page.events.map((event: { event_id: string }) => event.event_id));
}
