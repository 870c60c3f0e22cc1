import { createHash } from 'node:crypto';
import { html, trusted, type Html } from '../html.js';

/** The only style of the portal; inline, and allowed by its hash in the Content-Security-Policy. */
export const STYLE = `
:root { color-scheme: light; --accent: #1f5fbf; --error: #b3261e; --muted: #5b6470; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329; background: #f4f6f9; }
header { background: var(--accent); color: #fff; padding: 14px 0; }
header a { color: #fff; text-decoration: none; font-weight: 600; font-size: 1.15rem; }
.wrap { max-width: 760px; margin: 0 auto; padding: 0 16px; }
main.wrap { padding: 24px 16px 48px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 16px; }
h2 { font-size: 1.2rem; margin: 0 0 6px; }
a { color: var(--accent); }
.card { background: #fff; border: 1px solid #dde3ea; border-radius: 10px; padding: 18px 20px; margin: 0 0 14px; }
.vacancies { list-style: none; padding: 0; margin: 0; }
.meta { color: var(--muted); margin: 0; }
.salary { font-weight: 600; margin: 4px 0 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 16px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.tags { list-style: none; padding: 0; margin: 0 0 16px; display: flex; flex-wrap: wrap; gap: 6px; }
.tags li { background: #e8eef8; border-radius: 999px; padding: 2px 10px; font-size: .9rem; }
fieldset { border: 1px solid #dde3ea; border-radius: 8px; padding: 12px 16px 4px; margin: 0 0 16px; }
legend { font-weight: 600; padding: 0 6px; }
.hint { color: var(--muted); font-size: .9rem; margin: 0 0 10px; }
.field { margin: 0 0 14px; }
label { display: block; font-weight: 500; margin: 0 0 4px; }
input, textarea { width: 100%; font: inherit; padding: 8px 10px; border: 1px solid #aab4c0; border-radius: 6px; background: #fff; }
textarea { min-height: 140px; resize: vertical; }
input:focus, textarea:focus { outline: 3px solid #9cc0f5; border-color: var(--accent); }
[aria-invalid="true"] { border-color: var(--error); background: #fff7f6; }
.field-error { color: var(--error); margin: 4px 0 0; font-size: .95rem; }
.required { color: var(--error); }
button { font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 8px; padding: 10px 22px; cursor: pointer; }
button:hover { background: #174a96; }
.notice { border-radius: 8px; padding: 12px 16px; margin: 0 0 16px; }
.notice.error { background: #fdecea; border: 1px solid #f2b8b5; }
.notice.warning { background: #fff4e0; border: 1px solid #f3d19c; }
.notice ul { margin: 6px 0 0; padding-left: 20px; }
.success { text-align: center; padding: 32px 20px; }
.success .mark { font-size: 2.5rem; color: #1e8e3e; margin: 0; }
.small { color: var(--muted); font-size: .9rem; }
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

export interface Page {
  readonly title: string;
  readonly body: Html;
}

export function layout(siteTitle: string, page: Page): string {
  return html`<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} — ${siteTitle}</title>
<style>${trusted(STYLE)}</style>
</head>
<body>
<header><div class="wrap"><a href="/">${siteTitle}</a></div></header>
<main class="wrap" id="content">
${page.body}
</main>
</body>
</html>
`.value;
}
