/** The editor's preview shows a page's fields in the form's order, in the site's markup. */
import '@testing-library/jest-dom/vitest';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PagePreview } from './page-preview';

const data = {
  // Deliberately not in form order, as Decap's Immutable Map may hand them over.
  news: { badge: 'Aktuell', heading: 'Grippeschutzimpfung', text: 'Der Impfstoff ist da.' },
  title: 'Tab-Titel',
  description: 'Für Suchmaschinen',
  hero: { heading: 'Willkommen', text: 'Vorsorge und mehr.', bookLabel: 'Termin online buchen' },
  services: { heading: 'Leistungen', groups: [{ title: 'Vorsorge', items: ['Check-up', 'Impfungen'] }] },
  aboutHeading: 'Über uns',
  body: 'Text',
};
const form = [
  { name: 'title' },
  { name: 'description' },
  { name: 'hero', fields: [{ name: 'heading' }, { name: 'text' }, { name: 'bookLabel' }] },
  { name: 'news', fields: [{ name: 'badge' }, { name: 'heading' }, { name: 'text' }] },
  { name: 'services', fields: [{ name: 'heading' }, { name: 'groups', fields: [{ name: 'title' }, { name: 'items' }] }] },
  { name: 'aboutHeading' },
  { name: 'body' },
];

describe('the content editor preview', () => {
  it('shows the sections in the order of the form, cards, lists, buttons and the Markdown body', () => {
    render(
      <PagePreview
        entry={{ getIn: () => ({ toJS: () => data }) }}
        fields={{ toJS: () => form }}
        widgetFor={(name) => <p>gerendert: {name}</p>}
      />,
    );
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['Willkommen', 'Grippeschutzimpfung', 'Leistungen', 'Vorsorge', 'Über uns']);
    expect(screen.getByText('Browser-Tab: Tab-Titel', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Termin online buchen')).toHaveClass('bg-brand-600');
    expect(within(screen.getByRole('list')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Check-up', 'Impfungen']);
    expect(screen.getByText('gerendert: body').closest('.markdown-body')).not.toBeNull();
  });
});
