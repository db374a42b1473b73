/**
 * Every admin text field follows the patient text rules
 * (docs/decisions/015-admin-text-rules.md). The test walks every schema
 * src/lib/admin-schemas.ts and src/lib/staff-booking-schema.ts export and
 * every field in it: a field that takes a plain text is a text field, and
 * each one must refuse CR, a header injection, the Unicode line separator,
 * bidi overrides, other control characters and an RFC 2047 encoded word.
 * A field added later is walked without editing this test; a schema added
 * later needs a valid example below, or the test fails.
 */
import { describe, expect, it } from 'vitest';
import * as adminSchemas from '../../src/lib/admin-schemas';
import * as staffBookingSchemas from '../../src/lib/staff-booking-schema';
import { addDaysToDate, berlinToday } from '../../src/lib/berlin-time';
import * as z from '../../src/lib/zod';
import { fieldErrors } from '../../src/server/http.server';
import { testCaller } from '../helpers/patient';

const TYPE_ID = '0b6f3a52-4f9e-4c55-9a57-1f6a2c1d9e01';

/** A valid body for each exported object schema. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  appointmentTypeSchema: {
    name: 'Vorsorge',
    name_en: 'Check-up',
    description: 'Gesundheits-Check',
    description_en: 'Health check',
    max_advance_days: 14,
    slot_duration_minutes: 20,
    max_slots_per_time: 1,
    price_cents: null,
  },
  appointmentTypeFormSchema: {
    name: 'Vorsorge',
    name_en: '',
    description: 'Gesundheits-Check',
    description_en: '',
    max_advance_days: 14,
    slot_duration_minutes: 20,
    max_slots_per_time: 1,
    price: '',
  },
  timeWindowSchema: { appointment_type_id: TYPE_ID, day_of_week: 1, start_time: '09:00', end_time: '12:00' },
  blockedDateSchema: { date: '2030-01-07', reason: 'Fortbildung', appointment_type_id: null, start_time: null, end_time: null },
  // Staff book at most 365 days ahead of Berlin's today.
  staffBookingSchema: { appointment_type_id: TYPE_ID, appointment_date: addDaysToDate(berlinToday(), 7), appointment_time: '09:00', ...testCaller },
  staffMoveSchema: { appointment_date: addDaysToDate(berlinToday(), 7), appointment_time: '09:00' },
  cancelMessageSchema: { message: 'Die Ärztin ist erkrankt.' },
  staffAvailabilityQuerySchema: { type: TYPE_ID, from: '2030-01-07', to: '2030-01-08' },
  inventoryItemSchema: {
    name: 'Handschuhe',
    article_number: 'A-1',
    supplier: 'Praxisbedarf GmbH',
    expiry_date: null,
    current_stock: 5,
    minimum_stock: 1,
    is_ordered: false,
    last_inventory_check: null,
    last_usage_date: null,
    notes: 'im Keller',
  },
  inventoryOrderedSchema: { is_ordered: true },
  bookedSlotsQuerySchema: { from: '2030-01-07', to: '2030-01-13' },
  holidaysQuerySchema: { from: '2030-01-01', to: '2030-12-31' },
  attendanceSchema: { attendance: 'arrived' },
  patientSearchSchema: { q: 'Müller' },
};

/** Text fields that are textareas: they may hold LF and CRLF line breaks, nothing else beyond a line's rules. */
const MULTI_LINE = ['appointmentTypeSchema.description', 'appointmentTypeSchema.description_en', 'appointmentTypeFormSchema.description', 'appointmentTypeFormSchema.description_en', 'inventoryItemSchema.notes', 'cancelMessageSchema.message', 'blockedDateSchema.message', 'staffMoveSchema.message'];

const BAD: Array<[string, string]> = [
  ['a lone CR', 'Vorsorge\rBcc: x@example.org'],
  ['U+2028', 'Vorsorge\u2028Bcc: x@example.org'],
  ['U+2029', 'Vorsorge\u2029x'],
  ['RLO', 'Vorsorge\u202etxt.exe'],
  ['an isolate', 'Vorsorge\u2066x\u2069'],
  ['NUL', 'Vorsorge\u0000'],
  ['a tab', 'Vor\tsorge'],
  ['DEL', 'Vorsorge\u007f'],
  ['C1', 'Vorsorge\u0085'],
  ['an RFC 2047 encoded word', '=?utf-8?B?QmNjOiB4QGV4YW1wbGUub3Jn?='],
  ['"=?" anywhere', 'Vorsorge =? x'],
  // Format characters, noncharacters and lone surrogates (docs/decisions/028-hidden-characters-addresses-invitations-origin.md), also at either end.
  ['LRM', 'Vorsorge\u200e'],
  ['RLM', '\u200fVorsorge'],
  ['ALM', 'Vor\u061csorge'],
  ['RLE', 'Vor\u202bsorge'],
  ['BOM at the start', '\ufeffVorsorge'],
  ['BOM at the end', 'Vorsorge\ufeff'],
  ['an interlinear annotation', 'Vor\ufff9sorge\ufffax\ufffb'],
  ['a zero-width space', 'Vor\u200bsorge'],
  ['a word joiner', 'Vor\u2060sorge'],
  ['a soft hyphen', 'Vor\u00adsorge'],
  ['a tag character', 'Vorsorge\u{e0041}'],
  ['U+FDD0', 'Vorsorge\ufdd0'],
  ['U+FFFE', 'Vorsorge\ufffe'],
  ['U+FFFF', 'Vorsorge\uffff'],
  ['U+10FFFF', 'Vorsorge\u{10ffff}'],
  ['a lone surrogate', 'Vorsorge\ud800'],
  ['only a bidi mark', '\u200e'],
  ['only a BOM', '\ufeff'],
];

const objectSchemas = (Object.entries({ ...adminSchemas, ...staffBookingSchemas }) as Array<[string, unknown]>).filter(
  (entry): entry is [string, z.ZodMiniObject] => entry[1] instanceof z.ZodMiniObject,
);

function textFields(name: string, schema: z.ZodMiniObject): string[] {
  const example = EXAMPLES[name]!;
  return Object.keys(schema.shape).filter((field) => {
    const result = schema.safeParse({ ...example, [field]: 'Gültiger Text' });
    return result.success && (result.data as Record<string, unknown>)[field] === 'Gültiger Text';
  });
}

describe('admin text fields', () => {
  it('has a valid example for every object schema of the admin schemas', () => {
    expect(objectSchemas.length).toBeGreaterThan(5);
    for (const [name, schema] of objectSchemas) {
      expect(EXAMPLES[name], `add an example for ${name}`).toBeDefined();
      expect(schema.safeParse(EXAMPLES[name]).success, name).toBe(true);
    }
  });

  it('finds the text fields it walks (type names and descriptions, block reasons, inventory names …)', () => {
    const found = objectSchemas.flatMap(([name, schema]) => textFields(name, schema).map((f) => `${name}.${f}`));
    expect(found).toEqual(
      expect.arrayContaining([
        'appointmentTypeSchema.name',
        'appointmentTypeSchema.name_en',
        'appointmentTypeSchema.description',
        'blockedDateSchema.reason',
        'inventoryItemSchema.name',
        'inventoryItemSchema.supplier',
        'inventoryItemSchema.article_number',
        'inventoryItemSchema.notes',
      ]),
    );
  });

  for (const [name, schema] of objectSchemas) {
    for (const field of textFields(name, schema)) {
      const multiLine = MULTI_LINE.includes(`${name}.${field}`);
      const refuses = (value: string) => {
        const result = schema.safeParse({ ...EXAMPLES[name], [field]: value });
        return result.success ? [] : (fieldErrors(result.error)[field] ?? []);
      };

      it(`${name}.${field} refuses control, format, bidi and separator characters, noncharacters and encoded words, naming the field`, () => {
        for (const [what, value] of BAD) {
          // A line break character in a single-line field may be named as such.
          const keys = /[\r\u2028\u2029]/.test(value) && !multiLine ? ['admin.errors.singleLine'] : ['admin.errors.invalidCharacters'];
          expect(refuses(value), `${what} in ${name}.${field}`).toEqual(keys);
        }
      });

      it(`${name}.${field} ${multiLine ? 'keeps LF and CRLF line breaks (a textarea)' : 'is a single line: "\\nBcc:" is refused'}`, () => {
        if (multiLine) {
          expect(refuses('Zeile 1\nZeile 2\r\nZeile 3')).toEqual([]);
        } else {
          expect(refuses('Vorsorge\nBcc: x@example.org')).toEqual(['admin.errors.singleLine']);
          expect(refuses('Vorsorge\r\nBcc: x@example.org')).toEqual(['admin.errors.singleLine']);
        }
      });

      it(`${name}.${field} is stored NFC-normalised and trimmed`, () => {
        const result = schema.safeParse({ ...EXAMPLES[name], [field]: '  Mu\u0308ller  ' });
        expect(result.success).toBe(true);
        expect((result.data as Record<string, unknown>)[field]).toBe('M\u00fcller');
      });
    }
  }
});
