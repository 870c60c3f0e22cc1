import { html, trusted, type Html } from '../../../career-portal/src/html.js';
import { LANGUAGES, type Dictionary, type Language } from '../i18n/dictionary.js';
import { dictionaryFor } from '../language.js';
import { absoluteTime, relativeTime } from '../time-words.js';
import { COPY_SCRIPT, STYLE, SUBMIT_SCRIPT } from './assets.js';

/** What every view needs: the words, the clock and zone for times, and links that keep the language. */
export class View {
  constructor(
    readonly dictionary: Dictionary,
    readonly timeZone: string,
    readonly now: Date,
    readonly companyId: string | null,
  ) {}

  get language(): Language {
    return this.dictionary.language;
  }

  /** A path of the page with `lang` carried on, so that a choice made by ?lang= holds on every page. */
  href(path: string, query: Record<string, string> = {}, language: Language = this.language): string {
    return `${path}?${new URLSearchParams({ ...query, lang: language })}`;
  }

  /** "3 minutes ago" in a <time>, the exact moment in its title and datetime. */
  relative(iso: string, words: (relative: string) => string = (text) => text): Html {
    const moment = new Date(iso);
    return html`<time datetime="${iso}" title="${absoluteTime(this.dictionary, moment, this.timeZone)}">${words(relativeTime(this.dictionary, moment, this.now))}</time>`;
  }

  relativeText(iso: string): string {
    return relativeTime(this.dictionary, new Date(iso), this.now);
  }

  absoluteText(iso: string): string {
    return absoluteTime(this.dictionary, new Date(iso), this.timeZone);
  }

  absolute(iso: string): Html {
    return html`<time datetime="${iso}">${absoluteTime(this.dictionary, new Date(iso), this.timeZone)}</time>`;
  }
}

export interface Page {
  readonly title: string;
  readonly body: Html;
  /** The copy button's script (the secret page only). */
  readonly copyScript?: boolean;
  /** The GET path the language links lead to; null on answers to a POST, whose content must not be fetched again. */
  readonly switchPath: string | null;
  readonly switchQuery?: Record<string, string>;
}

export function layout(view: View, page: Page): string {
  const d = view.dictionary;
  const switcher =
    page.switchPath === null
      ? ''
      : html`<nav aria-label="${d.otherLanguages}"><ul>${LANGUAGES.map((language) => {
          const name = dictionaryFor(language).languageName;
          return language === view.language
            ? html`<li><a href="${view.href(page.switchPath as string, page.switchQuery, language)}" aria-current="true" lang="${language}">${name}</a></li>`
            : html`<li><a href="${view.href(page.switchPath as string, page.switchQuery, language)}" hreflang="${language}" lang="${language}">${name}</a></li>`;
        })}</ul></nav>`;
  return html`<!doctype html>
<html lang="${view.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${page.title === d.title ? d.title : `${page.title} — ${d.title}`}</title>
<style>${trusted(STYLE)}</style>
</head>
<body>
<a class="skip" href="#content">${d.skipToContent}</a>
<header><div class="wrap">
<p><a href="${view.href('/')}">${d.title}</a></p>
${view.companyId === null ? '' : html`<p class="company">${d.companyLabel}: <code>${view.companyId}</code></p>`}
${switcher}
</div></header>
<main class="wrap" id="content" tabindex="-1">
${page.body}
</main>
<script>${trusted(SUBMIT_SCRIPT)}</script>
${page.copyScript === true ? html`<script>${trusted(COPY_SCRIPT)}</script>` : ''}
</body>
</html>
`.value;
}
