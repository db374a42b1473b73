/**
 * The contact form:
 * idle → submitting ("Sending...", button disabled) → success (form cleared,
 * success toast) or failure (toast, values kept). Validation uses the same
 * zod schema as POST /api/contact. The language comes from the page.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useForm, type FieldErrors, type UseFormRegisterReturn } from 'react-hook-form';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { toast, Toaster } from 'sonner';
import { createI18n, localizedPath, type Lang } from '../../i18n/i18n';
import { CONTACT_LIMITS, CONTACT_RESULT_ID, contactMessageSchema, requiredContactFields, type ContactResponse } from '../../lib/contact-message';
import { retryAfterSeconds, waitPhrase } from '../../lib/retry-after';
import * as z from '../../lib/zod';
import { EmailHintLine, useEmailHint } from '../email-hint/email-hint';

const formSchema = z.omit(contactMessageSchema, { language: true });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
type FieldName = keyof FormInput;

const emptyForm: FormInput = { name: '', email: '', phone: '', subject: '', message: '', website: '' };

export interface ContactFormProps {
  lang: Lang;
  /** The API endpoint; tests and other origins may point elsewhere. */
  endpoint?: string;
}

/** With both whole dictionaries: for tests and pages that need no weight budget. */
export function ContactForm({ lang, endpoint = '/api/contact' }: ContactFormProps) {
  const i18n = useMemo(() => createI18n(lang), [lang]);
  return <ContactFormWithI18n lang={lang} endpoint={endpoint} i18n={i18n} />;
}

/** The form with a ready i18next instance (the per-language wrappers pass only the contact.* texts). */
export function ContactFormWithI18n({ lang, endpoint = '/api/contact', i18n }: ContactFormProps & { i18n: I18n }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ContactFormFields lang={lang} endpoint={endpoint} />
      <Toaster position="bottom-center" richColors closeButton duration={5000} style={toastColors} />
    </I18nextProvider>
  );
}

/** sonner's rich colours fall below WCAG AA contrast (3.5:1); darker text keeps the look at 4.5:1 and more. */
const toastColors = {
  '--error-text': '#b91c1c',
  '--error-border': '#fca5a5',
  '--success-text': '#166534',
  '--success-border': '#86efac',
} as React.CSSProperties;

function ContactFormFields({ lang, endpoint }: Required<ContactFormProps>) {
  const { t } = useTranslation();
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: emptyForm,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // A mistyped common domain gets a one-tap hint when the field is left (docs/decisions/035).
  const emailField = register('email');
  const emailHint = useEmailHint();
  // Hydrated and committed (react-hook-form has registered its fields, which resets their DOM
  // values): client:interaction puts back what was typed meanwhile (src/integrations/client-interaction.ts).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.setAttribute('data-hydrated', '');
  }, []);

  // One toast per message: the same error again (a second click) replaces it instead of stacking.
  const failed = (description: string) => toast.error(t('contact.toast.errorTitle'), { id: description, description });

  const onInvalid = (_errors: FieldErrors<FormInput>) => {
    const values = getValues();
    if (requiredContactFields.some((field) => !values[field]?.trim())) failed(t('contact.toast.requiredFields'));
  };

  const onValid = async (data: FormOutput) => {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ...data, language: lang }),
      });
    } catch {
      // No connection: say that the device is offline; the text stays in the form, as on the booking page.
      if (!navigator.onLine) toast.error(t('contact.toast.offlineTitle'), { id: 'offline', description: t('contact.toast.offline') });
      else failed(t('contact.toast.transportError'));
      return;
    }
    try {
      const body = (await response.json()) as Partial<ContactResponse> & { errors?: Record<string, string[]> };
      if (response.ok && body.success === true) {
        toast.success(t('contact.toast.sentTitle'), { description: t('contact.toast.sentText') });
        reset(emptyForm);
        return;
      }
      if (response.status === 429) {
        const seconds = retryAfterSeconds(response.headers.get('retry-after'));
        failed(seconds === null ? t('contact.toast.rateLimited') : t('contact.toast.rateLimitedWait', { when: waitPhrase(seconds, lang) }));
        return;
      }
      // The server's field errors (same schema) go to their fields.
      for (const [field, keys] of Object.entries(body.errors ?? {})) {
        if (field in emptyForm && keys[0]) setError(field as FieldName, { type: 'server', message: keys[0] });
      }
      failed(t('contact.toast.sendFailed'));
    } catch {
      failed(t('contact.toast.unexpected'));
    }
  };

  const field = (name: FieldName) => {
    const error = errors[name]?.message;
    return {
      id: `${id}-${name}`,
      errorId: `${id}-${name}-error`,
      error: error ? t(error) : undefined,
    };
  };

  return (
    // action/method: without JavaScript (or before the island hydrates) the browser posts the
    // form itself and the function answers a readable page (netlify/functions/contact.ts).
    <form
      ref={formRef}
      noValidate
      action={`${endpoint}#${CONTACT_RESULT_ID}`}
      method="post"
      aria-label={t('contact.form.label')}
      onSubmit={handleSubmit(onValid, onInvalid)}
      className="space-y-5"
    >
      <input type="hidden" name="language" value={lang} />
      <p className="text-sm text-slate-600">{t('contact.form.requiredNote')}</p>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label={t('contact.form.name')} required autoComplete="name" maxLength={CONTACT_LIMITS.nameMax} {...field('name')} registration={register('name')} />
        <TextField
          label={t('contact.form.email')}
          required
          type="email"
          autoComplete="email"
          maxLength={CONTACT_LIMITS.emailMax}
          {...field('email')}
          registration={{
            ...emailField,
            onBlur: (event) => {
              void emailHint.check(event.target.value);
              return emailField.onBlur(event);
            },
            onChange: (event) => {
              emailHint.clear();
              return emailField.onChange(event);
            },
          }}
          after={
            <EmailHintLine
              id={`${id}-email-suggestion`}
              hint={emailHint.hint}
              didYouMean={t('contact.form.emailHint', { email: '{{email}}', interpolation: { escapeValue: false } })}
              accept={t('contact.form.emailHintAccept')}
              onAccept={(email) => {
                setValue('email', email, { shouldValidate: Boolean(errors.email), shouldDirty: true });
                emailHint.clear();
              }}
            />
          }
        />
        <TextField label={t('contact.form.phone')} type="tel" autoComplete="tel" maxLength={CONTACT_LIMITS.phoneMax} {...field('phone')} registration={register('phone')} />
        <TextField label={t('contact.form.subject')} maxLength={CONTACT_LIMITS.subjectMax} {...field('subject')} registration={register('subject')} />
      </div>
      <div>
        <Label htmlFor={field('message').id} required>
          {t('contact.form.message')}
        </Label>
        <textarea
          id={field('message').id}
          rows={5}
          maxLength={CONTACT_LIMITS.messageMax}
          aria-required="true"
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? field('message').errorId : undefined}
          className={inputClass}
          {...register('message')}
        />
        <FieldError id={field('message').errorId} message={field('message').error} />
      </div>
      {/* Honeypot: invisible to people and assistive technology, filled in by bots. */}
      <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', top: 'auto', width: 1, height: 1, overflow: 'hidden' }}>
        <label htmlFor={`${id}-website`}>{t('contact.form.honeypot')}</label>
        <input id={`${id}-website`} type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
      </div>
      <p className="text-sm text-slate-600">
        {t('contact.form.privacyNote')}{' '}
        <a className="text-brand-700 underline" href={localizedPath('/datenschutz', lang)}>
          {t('contact.form.privacyLink')}
        </a>
      </p>
      <button
        type="submit"
        disabled={isSubmitting}
        className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {isSubmitting ? t('contact.form.sending') : t('contact.form.submit')}
      </button>
    </form>
  );
}

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-700';

function Label({ htmlFor, required, children }: { htmlFor: string; required?: boolean; children: React.ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block font-medium text-slate-800">
      {children}
      {required && (
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

interface TextFieldProps {
  id: string;
  errorId: string;
  error?: string;
  label: string;
  required?: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength: number;
  registration: UseFormRegisterReturn;
  /** Shown under the field (the email's domain hint). */
  after?: ReactNode;
}

function TextField({ id, errorId, error, label, required, type = 'text', autoComplete, maxLength, registration, after }: TextFieldProps) {
  return (
    <div>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        aria-required={required ? true : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClass}
        {...registration}
      />
      {after}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
