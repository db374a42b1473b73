/**
 * The start-up script's plain-HTML cards (type-cards.ts) are exactly what the
 * wizard's step 1 renders, in both languages, with prices, every advance text
 * and characters that need escaping: the wizard taking over changes nothing
 * on screen (no layout shift, no flash).
 */
import { cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n, dictionaries } from '../../i18n/i18n';
import type { Lang } from '../../i18n/languages';
import type { AppointmentType } from './api';
import { StepType } from './step-type';
import { offlineHtml, TYPE_CARD_TEXT_KEYS, typeCardsHtml, type TypeCardTexts } from './type-cards';

const TYPES: AppointmentType[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Akut & "dringend" <heute>',
    name_en: 'Acute & "urgent" <today>',
    description: 'Nur heute',
    description_en: null,
    max_advance_days: 0,
    slot_duration_minutes: 10,
    max_slots_per_time: 2,
    price_cents: null,
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    name: 'Reiseimpfung',
    name_en: null,
    description: 'Beratung und Impfung',
    description_en: 'Advice and vaccination',
    max_advance_days: 1,
    slot_duration_minutes: 30,
    max_slots_per_time: 1,
    price_cents: 3550,
  },
  {
    id: '33333333-3333-4333-8333-333333333333',
    name: 'Check-up',
    name_en: 'Health check',
    description: 'Vorsorge',
    description_en: 'Prevention',
    max_advance_days: 28,
    slot_duration_minutes: 20,
    max_slots_per_time: 1,
    price_cents: 12000,
  },
];

afterEach(cleanup);

const textsOf = (lang: Lang) => Object.fromEntries(TYPE_CARD_TEXT_KEYS.map((k) => [k, dictionaries[lang][k]])) as TypeCardTexts;

describe('type cards without React', () => {
  for (const lang of ['de', 'en'] as const) {
    it(`match the wizard's step 1 (${lang})`, () => {
      const { container } = render(
        <I18nextProvider i18n={createI18n(lang)}>
          <StepType headingRef={{ current: null }} types={TYPES} selectedId={null} lang={lang} onChoose={() => {}} />
        </I18nextProvider>,
      );
      const fromReact = container.querySelector('section > ul')!.outerHTML;
      const template = document.createElement('template');
      template.innerHTML = typeCardsHtml(TYPES, lang, textsOf(lang));
      expect(template.innerHTML).toBe(fromReact);
      // Sanity: the comparison covers what matters.
      expect(fromReact).toContain(lang === 'de' ? 'aria-label="Auswählen: Akut &amp; &quot;dringend&quot; &lt;heute&gt;"' : 'aria-label="Select: Acute &amp; &quot;urgent&quot; &lt;today&gt;"');
      expect(fromReact).toContain(lang === 'de' ? '28 Tage im Voraus buchbar' : 'Bookable 28 days in advance');
      expect(fromReact).toContain(lang === 'de' ? '35,50' : '€35.50');
    });
  }

  it('on English pages, German text standing in for a missing English one is marked lang="de" (German pages mark nothing)', () => {
    for (const lang of ['de', 'en'] as const) {
      const { container } = render(
        <I18nextProvider i18n={createI18n(lang)}>
          <StepType headingRef={{ current: null }} types={TYPES} selectedId={null} lang={lang} onChoose={() => {}} />
        </I18nextProvider>,
      );
      const template = document.createElement('template');
      template.innerHTML = typeCardsHtml(TYPES, lang, textsOf(lang));
      for (const root of [container, template.content]) {
        const marked = [...root.querySelectorAll('[lang]')].map((e) => `${e.tagName} ${e.getAttribute('lang')} ${e.textContent}`);
        expect(marked).toEqual(lang === 'de' ? [] : ['P de Nur heute', 'H3 de Reiseimpfung']);
      }
      cleanup();
    }
  });

  for (const lang of ['de', 'en'] as const) {
    it(`the offline notice matches the wizard's (${lang})`, () => {
      const { container } = render(
        <I18nextProvider i18n={createI18n(lang)}>
          <StepType headingRef={{ current: null }} types={[]} offline selectedId={null} lang={lang} onRetry={() => {}} onChoose={() => {}} />
        </I18nextProvider>,
      );
      const fromReact = container.querySelector('section > [role="alert"]')!.outerHTML;
      const template = document.createElement('template');
      template.innerHTML = offlineHtml(textsOf(lang));
      expect(template.innerHTML).toBe(fromReact);
      expect(fromReact).toContain(lang === 'de' ? 'Erneut versuchen' : 'Try again');
    });
  }
});
