import type { IncomingHttpHeaders } from 'node:http';

/**
 * Why a POST must be refused as coming from another site, or null when it comes from the portal's own pages.
 *
 * - `Sec-Fetch-Site`, when present, decides: the browser computed it against the address it actually used,
 *   so it is right behind a proxy too. `same-origin` passes; so does `none` (a navigation the person started,
 *   from the address bar or a bookmark), which no page can cause. `same-site` is refused: a sibling host
 *   (an old campaign site on a subdomain) is another party.
 * - Without it (Safari before 16.4, plain http on an address other than localhost), `Origin`, and failing that
 *   `Referer`, must be the portal's own origin. `Origin: null` (a sandboxed frame, a data: page) is not.
 * - With none of the three, the POST is refused as well. Every current browser sends `Origin` on a form POST,
 *   even under `Referrer-Policy: no-referrer` (then as `null`); a request with none comes from a script, which
 *   could forge any header anyway and is not a visitor, or from a browser too old to tell us where the form was.
 */
export function crossSiteReason(headers: IncomingHttpHeaders, ownOrigin: string): string | null {
  const fetchSite = single(headers['sec-fetch-site']);
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none' ? null : `sec-fetch-site: ${fetchSite}`;
  const origin = single(headers.origin);
  if (origin !== undefined) return originOf(origin) === ownOrigin ? null : `origin: ${origin}`;
  const referer = single(headers.referer);
  if (referer !== undefined) return originOf(referer) === ownOrigin ? null : `referer from: ${originOf(referer) ?? 'not a URL'}`;
  return 'no sec-fetch-site, origin or referer';
}

/** The origin browsers use for the portal, from PORTAL_PUBLIC_URL (path, query and fragment are ignored). */
export function publicOriginOf(url: string): string {
  const origin = originOf(url);
  if (origin === null || !/^https?:\/\//.test(origin)) throw new Error(`"${url}" is not an http:// or https:// URL`);
  return origin;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(',') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}
