// What to tell search engines after a build: the URLs added to the sitemap, changed, or gone from it
// since the last accepted submission, as IndexNow asks: "submit URLs that have been added, updated or
// deleted" (indexnow.org documentation).

export interface AnnouncedPage {
  /** Content hash of the page now. */
  hash: string;
  /** Whether the page is in the sitemap now. */
  listed: boolean;
}

export type AnnouncementKind = 'added' | 'updated' | 'removed';

export interface Announcement {
  url: string;
  kind: AnnouncementKind;
}

/**
 * The announcements pending. `announced` maps each URL to its content hash at its last accepted
 * submission. Order: current pages in `pages` order, then removed URLs in `announced` order.
 */
export function pendingAnnouncements(pages: ReadonlyMap<string, AnnouncedPage>, announced: ReadonlyMap<string, string>): Announcement[] {
  const out: Announcement[] = [];
  for (const [url, page] of pages) {
    if (!page.listed) continue;
    const hash = announced.get(url);
    if (hash === undefined) out.push({ url, kind: 'added' });
    else if (hash !== page.hash) out.push({ url, kind: 'updated' });
  }
  for (const url of announced.keys()) if (pages.get(url)?.listed !== true) out.push({ url, kind: 'removed' });
  return out;
}

/** Records that `urls` were accepted: listed ones with their current hash, the others forgotten. */
export function recordAnnounced(pages: ReadonlyMap<string, AnnouncedPage>, announced: Map<string, string>, urls: Iterable<string>): void {
  for (const url of urls) {
    const page = pages.get(url);
    if (page?.listed === true) announced.set(url, page.hash);
    else announced.delete(url);
  }
}
