import { createHash } from 'node:crypto';

/** The page's only style; inline, allowed by its hash in the Content-Security-Policy. */
export const STYLE = `
:root { color-scheme: light; --accent: #1f5fbf; --danger: #b3261e; --muted: #505a66; --line: #d4dbe3; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329; background: #f4f6f9; }
.skip { position: absolute; left: 8px; top: -48px; background: #fff; padding: 8px 12px; border-radius: 6px; z-index: 1; }
.skip:focus { top: 8px; }
header { background: #fff; border-bottom: 1px solid var(--line); }
header .wrap { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: baseline; justify-content: space-between; padding: 12px 16px; }
header .company { color: var(--muted); margin: 0; }
nav ul { list-style: none; display: flex; gap: 12px; margin: 0; padding: 0; }
.wrap { max-width: 920px; margin: 0 auto; padding: 0 16px; }
main.wrap { padding: 24px 16px 48px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 12px; }
h2 { font-size: 1.25rem; margin: 32px 0 12px; }
.card > h2:first-child { margin-top: 0; }
h3 { font-size: 1.1rem; margin: 0 0 8px; overflow-wrap: anywhere; }
h3 .replaced { font-weight: 400; color: var(--muted); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin: 0 0 14px; }
.keys { list-style: none; padding: 0; margin: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 12px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.status { display: inline-block; border-radius: 999px; padding: 0 10px; font-size: .9rem; font-weight: 600; }
.status.active { background: #e3f4e8; color: #17602f; }
.status.expired { background: #fff1d6; color: #7a4a00; }
.status.revoked { background: #fde7e5; color: #8c1d15; }
.scope-list { margin: 0; padding-left: 20px; }
.badge { display: inline-block; background: #fde7e5; color: #8c1d15; border-radius: 4px; padding: 0 6px; font-size: .85rem; margin-left: 6px; }
.actions { display: flex; gap: 16px; margin: 0; }
.muted, .hint { color: var(--muted); }
.hint { font-size: .92rem; margin: 2px 0 8px; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px 4px; margin: 0 0 16px; }
legend { font-weight: 600; padding: 0 6px; }
.field { margin: 0 0 16px; }
label { font-weight: 500; }
.field > label { display: block; margin: 0 0 4px; }
.choice { display: grid; grid-template-columns: auto 1fr; gap: 0 10px; margin: 0 0 12px; }
.choice input { margin: 5px 0 0; width: 18px; height: 18px; }
.choice .hint { grid-column: 2; margin: 0; }
input[type=text], select { font: inherit; padding: 8px 10px; border: 1px solid #8a96a3; border-radius: 6px; background: #fff; }
input[type=text] { width: 100%; }
input.secret { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
[aria-invalid="true"] { border-color: var(--danger); background: #fff7f6; }
.field-error { color: var(--danger); margin: 4px 0 0; }
button { font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 8px; padding: 9px 20px; cursor: pointer; }
button:hover { background: #174a96; }
button.danger { background: var(--danger); }
button.danger:hover { background: #8c1d15; }
button:disabled, button:disabled:hover { background: var(--muted); cursor: progress; }
.row { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
.notice { border-radius: 8px; padding: 12px 16px; margin: 0 0 16px; }
.notice.error { background: #fdecea; border: 1px solid #f2b8b5; }
.notice.warning { background: #fff4e0; border: 1px solid #f3d19c; }
.notice.success { background: #e3f4e8; border: 1px solid #a8d5b5; }
.notice ul { margin: 6px 0 0; padding-left: 20px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; vertical-align: top; padding: 8px 10px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { font-weight: 600; color: var(--muted); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
.paging { display: flex; gap: 20px; margin: 12px 0 0; }
`;

/**
 * The secret page's only script: the copy button. Without JavaScript the button stays hidden and the key
 * is plain text in a read-only field, to select and copy by hand. The clipboard API needs a secure context
 * (https, or localhost) and may be refused; then the key is selected and the person is told to press
 * Ctrl+C. When the page is left, the key is wiped from it, so that a page restored by Back shows nothing.
 */
export const COPY_SCRIPT = `
(() => {
  const button = document.getElementById('copy-secret');
  const field = document.getElementById('secret');
  const status = document.getElementById('copy-status');
  if (!button || !field || !status) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      if (!window.isSecureContext || !navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(field.value);
      status.textContent = button.dataset.copied;
    } catch {
      field.focus();
      field.select();
      status.textContent = button.dataset.fallback;
    }
  });
  window.addEventListener('pagehide', () => {
    field.value = '';
    document.getElementById('secret-block')?.replaceChildren();
  });
})();
`;

/**
 * Every page's other script: a form is sent once. A second click (a double click, or an impatient one)
 * would send it again, and the browser would drop the answer to the first sending for the second's; on
 * the issue and roll forms that answer is the only one with the secret, and the second finds the form's
 * token spent (409). So the button is disabled as the form is sent. Without JavaScript the form is sent as
 * it is, and the 409 page says what may have happened. A page restored by Back gets its button back.
 */
export const SUBMIT_SCRIPT = `
(() => {
  const buttonsOf = (form) => form.querySelectorAll('button[type="submit"]');
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
    if (form.dataset.sent === 'true') {
      event.preventDefault();
      return;
    }
    form.dataset.sent = 'true';
    form.setAttribute('aria-busy', 'true');
    for (const button of buttonsOf(form)) button.disabled = true;
  });
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const form of document.forms) {
      delete form.dataset.sent;
      form.removeAttribute('aria-busy');
      for (const button of buttonsOf(form)) button.disabled = false;
    }
  });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const STYLE_HASH = sha256(STYLE);
export const COPY_SCRIPT_HASH = sha256(COPY_SCRIPT);
export const SUBMIT_SCRIPT_HASH = sha256(SUBMIT_SCRIPT);
