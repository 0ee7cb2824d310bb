import type { Language } from '../../i18n/catalog';
import { document, html } from '../html';

/** A page that only says something: a refused link, a document no longer there. */
export const messagePage = (language: Language, title: string, body: string): string =>
  document({ language, title, body: html`<h1>${title}</h1><p>${body}</p>` });
