/** The prose of the document: what an integrator needs before the first request (Markdown, as OpenAPI allows). */
export function documentDescription(points: number, windowS: number): string {
  return `A company's vacancies and candidates for outside systems (career portals, HR tools), and applications back from them.

Every request runs under a company service key, sent in the \`X-API-Key\` header (never in the query string), and
sees only that company's data. Two regional deployments (Kazakhstan, Uzbekistan) serve this same API; one key works
on both. Within v1 fields are only added: ignore fields you do not know. Unknown body fields are ignored; a query
parameter an operation does not take, or one given twice, is a 400 naming it. Every answer carries
\`Cache-Control: no-store\`: no cache may keep one.

## Scopes
A key carries scopes, chosen when it is issued: \`vacancies:read\` (GET /vacancies), \`candidates:read\` (GET /candidates:
personal data of real people) and \`applications:write\` (POST /applications). A storefront that shows vacancies and
sends applications needs no access to the candidate base.

## Errors
Every error is \`application/problem+json\` with a stable \`code\` and the \`requestId\` (also in the \`X-Request-Id\`
header); a 400 lists every problem with a JSON Pointer. Act on \`status\` and \`code\`, never on \`detail\`.

## Rate limit
Each key has a budget of ${points} requests per ${windowS} s (requests without a valid key count per client address).
Every response says where you stand: \`RateLimit-Policy\` and \`RateLimit\` (IETF draft). A 429 carries \`Retry-After\`
in seconds: wait that long, then retry. Every operation is safe to retry: reads change nothing, and applications are
idempotent on \`externalId\`. A list request with \`If-None-Match\` spends a point of a second, larger budget of the key,
"not-modified" (named in both headers); answered 304 it spends nothing else, answered with a page it also spends a request.

## Incremental sync (no lost changes)
Lists are ordered by (modification time, id) and paged by an opaque cursor: inserts while you page cause no repeats or
gaps, and a record changed while you page moves to the end, where you meet it again.
1. Before the first page of a pass, nothing; on the first page, keep its \`X-Sync-Watermark\` header.
2. Follow \`nextCursor\` until it is null, keeping since (and status, vacancyId, fields) as on the first page. A page may hold
   fewer items than \`limit\` and still have a next one (pages are bounded in bytes too): only a null cursor ends a pass.
3. Once the pass is complete, the kept watermark is the \`since\` of the next pass. Never take the time at the end.
4. Deletions are not reported: now and then make a full pass without \`since\` with \`fields=id\` (ids and updatedAt
   only, a twentieth of the bytes) and drop the ids you did not see.
5. Sync vacancies with \`status=all\`; archived ones are delivered with status archived.
6. Every page carries a strong \`ETag\`; send it back as \`If-None-Match\` and an unchanged page is a 304 without a body,
   with a fresh \`X-Sync-Watermark\`: a poll that finds nothing new costs one 304 per list.
A rename of a vacancy does not touch its candidates' \`updatedAt\`: join candidates to vacancies on \`vacancyId\`.`;
}
