import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The per-request Content-Security-Policy nonce (server/app.ts). */
    cspNonce: string;
    /** Set by the anonymous page cache: the tribute form's stamp, filled in per copy served. */
    formStamp?: string;
    /**
     * Set by the anonymous page cache: the version of the public memorials (page_versions) it read before this
     * render, so that what every render of that version shows alike (the Featured carousel) is read once.
     */
    memorialsVersion?: string;
    /**
     * Set by the page cache's search templates (server/search-template.ts): the gallery's memorials found for the
     * words searched, when the address holds a placeholder in their place (a BrowseFound, memorials/gallery.server.ts).
     */
    browseFound?: { ids: string[]; hasMore: boolean; page: number };
    /**
     * Set by the anonymous page cache: told how many pages a memorial's tribute list has, so that the address of a
     * page past the last (which shows the last) is answered from the last page's kept copy, not rendered anew.
     */
    tributePages?: (pages: number) => void;
  }
}
