/**
 * A patient's request (docs/decisions/036-patient-requests.md): one schema
 * shared by the request form and POST /api/requests. Three kinds, each with
 * its own fields beside the common ones; fields of the other kinds are
 * dropped (a form without JavaScript posts every section). Messages are keys
 * of src/lib/request-texts.ts (`requests.errors.*`), so a refusal reads the
 * same on the page and in the API's `errors`.
 *
 * Text rules are the contact form's and the booking form's (docs/architecture.md,
 * Security: bad input): NFC, no control, format (bidi marks included) or
 * noncharacter code points, names on one line, a real birth date in the past
 * and at most 130 years back, one ASCII email address.
 */
import { isLang, type Lang } from '../i18n/languages';
import { optionalAdminText } from './admin-text';
import { CANCELLATION_TOKEN } from './cancellation-token';
import { callbackDays } from './callback-days';
import { birthDateProblem, isRealDate } from './booking-schema';
import { phoneSchema } from './phone';
import { REQUEST_LIMITS } from './request-limits';
import { hasEncodedWord, hasLineBreak, isCleanLine, isCleanText, toAsciiEmail, trimSpaces, visibleLength } from './text-input';
import * as z from './zod';
import { CALLBACK_DAYPARTS, DELIVERIES, INSURANCES, REQUEST_KINDS, REQUEST_STATUSES, type RequestKind, type RequestStatus } from './request-kinds';

export {
  CALLBACK_DAYPARTS,
  DELIVERIES,
  INSURANCES,
  isRequestKind,
  OPEN_STATUSES,
  REQUEST_KINDS,
  REQUEST_RESULT_ID,
  type RequestKind,
  type RequestStatus,
} from './request-kinds';
export { REQUEST_LIMITS };

const normalise = (v: string) => trimSpaces(v).normalize('NFC');

/** The rules of one line of text: at most `max` characters, no line break, nothing hidden, no encoded word. */
const lineRules = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max, 'requests.errors.tooLong'),
      z.refine((v) => !hasLineBreak(v), { message: 'requests.errors.singleLine', abort: true }),
      z.refine(isCleanLine, { message: 'requests.errors.invalidCharacters', abort: true }),
    );

/** The rules of several lines (reason, topic, note): LF or CRLF line breaks, nothing else hidden, no encoded word. */
const textRules = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max, 'requests.errors.tooLong'),
      z.refine((v) => isCleanText(v) && !hasEncodedWord(v), { message: 'requests.errors.invalidCharacters', abort: true }),
    );

/** A required text: `requiredKey` when nothing visible is left. */
const required = (requiredKey: string, rules: z.ZodMiniType<string, string>) =>
  z.pipe(z.pipe(z.string({ error: requiredKey }), z.transform(normalise)), rules).check(z.refine((v) => visibleLength(v) >= 1, requiredKey));

/** An optional text: missing or nothing visible is absent. */
const optional = (rules: z.ZodMiniType<string, string>) =>
  z.pipe(
    z.optional(z.pipe(z.pipe(z.string({ error: 'requests.errors.invalid' }), z.transform(normalise)), rules)),
    z.transform((v) => (v && visibleLength(v) > 0 ? v : undefined)),
  );

/** A name: one line, 2–100 visible characters. */
const name = (key: string) =>
  z.pipe(
    z.pipe(z.string({ error: key }), z.transform(normalise)),
    z
      .string()
      .check(
        z.maxLength(REQUEST_LIMITS.nameMax, 'requests.errors.nameTooLong'),
        z.refine(isCleanLine, { message: 'requests.errors.invalidCharacters', abort: true }),
        z.refine((v) => visibleLength(v) >= 2, key),
      ),
  );

/** The booking form's birth-date messages as this form's keys. */
const BIRTH_DATE_KEYS: Record<string, string> = {
  'bookingForm.errors.birthDateFormat': 'requests.errors.birthDateFormat',
  'bookingForm.errors.birthDateImpossible': 'requests.errors.birthDateImpossible',
  'bookingForm.errors.birthDateFuture': 'requests.errors.birthDateFuture',
  'bookingForm.errors.birthDateInvalid': 'requests.errors.birthDateInvalid',
};

/** yyyy-MM-dd (the form posts what the page's language types: see requestFromForm). */
const birthDate = z.string({ error: 'requests.errors.birthDateFormat' }).check(
  z.trim(),
  z.superRefine((value, ctx) => {
    const problem = birthDateProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: BIRTH_DATE_KEYS[problem] ?? 'requests.errors.birthDateInvalid' });
  }),
);

const email = z.pipe(
  z.pipe(
    z.string({ error: 'requests.errors.emailRequired' }).check(z.trim(), z.minLength(1, 'requests.errors.emailRequired'), z.maxLength(254, 'requests.errors.emailInvalid')),
    z.transform((v) => toAsciiEmail(v) ?? ''),
  ),
  z.email({ error: 'requests.errors.emailInvalid' }),
);

/**
 * A phone number by the booking form's rule (a valid number, German by
 * default), answered in E.164 (docs/decisions/043-sms-second-channel.md);
 * the schemas holding one are built in `/* @__PURE__ *\/` calls, so bundles
 * that only read statuses and kinds from this module leave the number
 * metadata out.
 */
const phoneNumber = (requiredKey: string | null) => {
  const rule = z.pipe(
    z.string({ error: requiredKey ?? 'requests.errors.phoneInvalid' }).check(
      z.trim(),
      z.refine((v) => v !== '' || !requiredKey, { message: requiredKey ?? 'requests.errors.phoneInvalid', abort: true }),
      z.refine((v) => v === '' || phoneSchema.safeParse(v).success, 'requests.errors.phoneInvalid'),
    ),
    z.transform((v) => (v === '' ? v : phoneSchema.parse(v))),
  );
  return requiredKey ? rule : z.pipe(z.optional(rule), z.transform((v) => v || undefined));
};

const commonFields = () => ({
  first_name: name('requests.errors.firstName'),
  last_name: name('requests.errors.lastName'),
  birth_date: birthDate,
  email,
  phone: phoneNumber(null),
  // The cast keeps the type guard's narrowing, which classic `.refine(isLang)` applied and a mini check does not.
  language: z.string({ error: 'requests.errors.language' }).check(z.refine(isLang, 'requests.errors.language')) as z.ZodMiniString<string> & z.ZodMiniType<Lang, string>,
  consent: z.literal(true, { error: 'requests.errors.consentRequired' }),
  note: optional(textRules(REQUEST_LIMITS.noteMax)),
  /** Honeypot: hidden from people, filled in by bots. A request with any value here is answered like a success and not stored. */
  website: z.optional(z.string().check(z.maxLength(1000))),
  /** The patient agreed to SMS at this (mobile) number: the status reaches them by SMS when its email does not (docs/decisions/043). */
  sms: z.optional(z.boolean({ error: 'requests.errors.invalid' })),
});

const medication = z.object(
  {
    name: required('requests.errors.medicationName', lineRules(REQUEST_LIMITS.medicationNameMax)),
    strength: optional(lineRules(REQUEST_LIMITS.medicationDetailMax)),
    pack: optional(lineRules(REQUEST_LIMITS.medicationDetailMax)),
  },
  { error: 'requests.errors.medicationName' },
);

export const prescriptionRequestSchema = /* @__PURE__ */ (() =>
  z
  .object({
    kind: z.literal('prescription'),
    ...commonFields(),
    insurance: z.enum(INSURANCES, { error: 'requests.errors.insuranceRequired' }),
    delivery: z.enum(DELIVERIES, { error: 'requests.errors.deliveryRequired' }),
    /** With delivery to the card: the patient confirms the card was read in the practice this quarter. */
    card_read_this_quarter: z.optional(z.boolean({ error: 'requests.errors.invalid' })),
    medications: z
      .array(medication, { error: 'requests.errors.medicationsRequired' })
      .check(z.minLength(1, 'requests.errors.medicationsRequired'), z.maxLength(REQUEST_LIMITS.medicationsMax, 'requests.errors.medicationsTooMany')),
  })
  // An e-prescription goes onto the health card of the statutorily insured only. Checked
  // even when other fields are wrong too (`when`), so the form names every problem at once.
  .check(
    z.refine((r) => !(r.delivery === 'card' && r.insurance === 'private'), {
      path: ['delivery'],
      message: 'requests.errors.cardNeedsStatutory',
      when: ({ value }) => {
        const r = value as { delivery?: unknown; insurance?: unknown } | null;
        return r?.delivery === 'card' && r.insurance === 'private';
      },
    }),
  ))();

export const referralRequestSchema = /* @__PURE__ */ (() => z.object({
  kind: z.literal('referral'),
  ...commonFields(),
  specialty: required('requests.errors.specialtyRequired', lineRules(REQUEST_LIMITS.specialtyMax)),
  reason: required('requests.errors.reasonRequired', textRules(REQUEST_LIMITS.reasonMax)),
}))();

export const callbackRequestSchema = /* @__PURE__ */ (() => z.object({
  kind: z.literal('callback'),
  ...commonFields(),
  phone: phoneNumber('requests.errors.phoneRequired'),
  callback_date: z
    .string({ error: 'requests.errors.callbackDateRequired' })
    .check(
      z.refine((v) => v !== '', { message: 'requests.errors.callbackDateRequired', abort: true }),
      z.refine((v) => isRealDate(v) && callbackDays().includes(v), 'requests.errors.callbackDateInvalid'),
    ),
  daypart: z.enum(CALLBACK_DAYPARTS, { error: 'requests.errors.daypartRequired' }),
  topic: required('requests.errors.topicRequired', textRules(REQUEST_LIMITS.topicMax)),
}))();

/** POST /api/requests. */
export const patientRequestSchema = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [prescriptionRequestSchema, referralRequestSchema, callbackRequestSchema], {
    error: 'requests.errors.kindRequired',
  }))();

export type PatientRequestInput = z.input<typeof patientRequestSchema>;
export type PatientRequest = z.output<typeof patientRequestSchema> & { language: 'de' | 'en' };
export type PrescriptionRequest = Extract<PatientRequest, { kind: 'prescription' }>;
export type ReferralRequest = Extract<PatientRequest, { kind: 'referral' }>;
export type CallbackRequest = Extract<PatientRequest, { kind: 'callback' }>;

/** The answer of POST /api/requests. */
export interface RequestReceipt {
  reference: string;
}

/** GET /api/requests: what the form offers today (the practice's switches and notice). */
export interface RequestOffer {
  kinds: Record<RequestKind, boolean>;
  /** Whether the practice sends SMS: the form offers the status by SMS should its email not arrive. */
  sms?: boolean;
  notice_de: string | null;
  notice_en: string | null;
}

/** GET /api/requests/status?token=. */
export interface RequestStatusDto {
  kind: RequestKind;
  reference: string;
  received_at: string;
  status: RequestStatus;
  message?: string;
}

/** What the back office's queue filters by: a status, `open` (new and in progress, the default) or `all`. */
export const REQUEST_STATUS_FILTERS = ['open', 'all', ...REQUEST_STATUSES] as const;
export type RequestStatusFilter = (typeof REQUEST_STATUS_FILTERS)[number];

const emptyAsMissing = (v: unknown) => (v === '' ? undefined : v);

/** GET /api/admin/requests?status=&kind= */
export const adminRequestsQuerySchema = z.object({
  status: z.pipe(z.transform(emptyAsMissing), z._default(z.enum(REQUEST_STATUS_FILTERS, { error: 'admin.errors.invalid' }), 'open')),
  kind: z.pipe(z.transform(emptyAsMissing), z.optional(z.enum(REQUEST_KINDS, { error: 'admin.errors.invalid' }))),
});
export type AdminRequestsQuery = z.output<typeof adminRequestsQuerySchema>;

/**
 * PUT /api/admin/requests/:id: the next status and the practice's message
 * to the patient (at most 500 characters, the admin text rules; required
 * to decline, optional when done, none while in progress).
 */
export const requestStatusChangeSchema = z
  .object({
    status: z.enum(['in_progress', 'done', 'declined'], { error: 'admin.errors.invalid' }),
    message: optionalAdminText(REQUEST_LIMITS.messageMax, { multiline: true }),
    /** Staff confirm a message that names the request's medications, reason, specialty or topic (docs/decisions/041). */
    confirm: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
  })
  .check(
    z.superRefine((change, ctx) => {
      if (change.status === 'declined' && !change.message) {
        ctx.addIssue({ code: 'custom', path: ['message'], message: 'admin.errors.messageRequired' });
      }
    }),
  );
export type RequestStatusChange = z.output<typeof requestStatusChangeSchema>;


/** Which status may follow which: new → in progress → done | declined; new may be closed at once. */
export const NEXT_STATUSES: Record<RequestStatus, readonly RequestStatus[]> = {
  new: ['in_progress', 'done', 'declined'],
  in_progress: ['done', 'declined'],
  done: [],
  declined: [],
};

/** GET /api/requests/status?token=: the status link's token, the shape of a booking link's (32 random bytes, base64url). */
export const requestStatusQuerySchema = z.object({
  token: z.string({ error: 'errors.tokenInvalid' }).check(z.regex(CANCELLATION_TOKEN, 'errors.tokenInvalid')),
});
