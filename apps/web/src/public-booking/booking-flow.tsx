import { lazy, Suspense, useState } from 'react';
import type { BookingConfirmResult, BookingHold, CreateBookingHoldBody, PublicServicePage } from '@divan/core';
import { asFailure, bookingApi, type ServiceIds } from './api';
import { embedded } from './embed';
import { fieldMessages, messageOf, placeOf, type Failure } from './errors';
import type { BookingForm as FormValues, FormErrors } from './form-checks';
import { dayInZone } from '../public-kit/format';
import { SlotPicker } from '../public-kit/slot-picker';
import { lastMonth, type Slot } from '../public-kit/slots';
import { Skeleton } from './ui';
import { useMonthSlots } from './use-month-slots';

const steps = () => import('./steps');
const BookingForm = lazy(() => steps().then((m) => ({ default: m.BookingForm })));
const CodeStep = lazy(() => steps().then((m) => ({ default: m.CodeStep })));
const BookedScreen = lazy(() => steps().then((m) => ({ default: m.BookedScreen })));
const PaymentScreen = lazy(() => steps().then((m) => ({ default: m.PaymentScreen })));

type Step = 'slots' | 'form' | 'code' | 'done';
const FORM_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'message', 'privacyAccepted'];
type Notice = { at: Step | 'new-code'; text: string };

/**
 * A service's booking, step by step: day and hour → the visitor's data → the mailed code → booked (or
 * off to pay). Each failure goes back to where it can be fixed (errors.ts), and what was typed stays.
 */
export function BookingFlow({ ids, page, visitorZone }: { ids: ServiceIds; page: PublicServicePage; visitorZone: string | undefined }) {
  const therapistZone = page.service.timeZone;
  const [today] = useState(() => dayInZone(new Date(), visitorZone ?? therapistZone));
  const [maxMonth] = useState(() => lastMonth(new Date(), therapistZone, page.service.maxNotice));
  const slots = useMonthSlots(ids, visitorZone, today.slice(0, 7));

  const [step, setStep] = useState<Step>('slots');
  const [visited, setVisited] = useState(false);
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  // Null until the form first opens: the form's code (and its checks) loads with it, not with the calendar.
  const [values, setValues] = useState<FormValues | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [hold, setHold] = useState<BookingHold | null>(null);
  const [result, setResult] = useState<BookingConfirmResult | null>(null);
  const [busy, setBusy] = useState(false);

  const go = (next: Step) => {
    setVisited(true);
    setStep(next);
  };

  const fail = (failure: Failure, at: Step) => {
    const text = messageOf(failure);
    switch (placeOf(failure.code)) {
      case 'slots':
        setSlot(null);
        setHold(null);
        setNotice({ at: 'slots', text });
        slots.reload(slots.month);
        go('slots');
        return;
      case 'form': {
        const fields = fieldMessages(failure.fields) as FormErrors;
        const known = Object.keys(fields).filter((k) => FORM_FIELDS.includes(k));
        setErrors(fields);
        setNotice(known.length && failure.code === 'invalid_argument' ? null : { at: 'form', text });
        setHold(null);
        go('form');
        return;
      }
      case 'code':
        setCodeError(text);
        return;
      case 'new-code':
        setNotice({ at: 'new-code', text });
        return;
      default:
        setNotice({ at, text });
    }
  };

  const pick = (s: Slot) => {
    setSlot(s);
    setNotice(null);
    go('form');
  };

  /** The form has checked what was typed (form-checks.ts): ask for the hour, and a code by mail. */
  const submitForm = async (body: CreateBookingHoldBody) => {
    setNotice(null);
    setBusy(true);
    try {
      setHold(await bookingApi.hold(ids, body));
      setCodeError(null);
      go('code');
    } catch (error) {
      fail(asFailure(error), 'form');
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (code: string) => {
    if (!hold) return;
    setBusy(true);
    setCodeError(null);
    setNotice(null);
    try {
      setResult(await bookingApi.confirm(hold.holdId, code));
      go('done');
    } catch (error) {
      fail(asFailure(error), 'code');
    } finally {
      setBusy(false);
    }
  };

  if (step === 'done' && result)
    return (
      <Suspense fallback={<StepSkeleton />}>
        {result.status === 'booked' ? (
          <BookedScreen booking={result.booking} visitorZone={visitorZone} />
        ) : (
          <PaymentScreen checkoutUrl={result.checkoutUrl} embedded={embedded} />
        )}
      </Suspense>
    );

  if (step === 'code' && hold)
    return (
      <Suspense fallback={<StepSkeleton />}>
        <CodeStep
          emailHint={hold.emailHint}
          codeError={codeError}
          needsNewCode={notice?.at === 'new-code' ? notice.text : null}
          notice={notice?.at === 'code' ? notice.text : null}
          submitting={busy}
          onConfirm={(code) => void confirm(code)}
          onBack={() => {
            setHold(null);
            setNotice(null);
            go('form');
          }}
        />
      </Suspense>
    );

  if (step === 'form' && slot)
    return (
      <Suspense fallback={<StepSkeleton />}>
        <BookingForm
          values={values}
          onChange={setValues}
          errors={errors}
          notice={notice?.at === 'form' ? notice.text : null}
          submitting={busy}
          onErrors={setErrors}
          onSubmit={(body) => void submitForm(body)}
          visitorZone={visitorZone}
          workspaceName={page.workspace.name}
          slot={slot}
          therapistZone={therapistZone}
          onChangeSlot={() => go('slots')}
        />
      </Suspense>
    );

  return (
    <SlotPicker
      slots={slots}
      day={day}
      onDay={setDay}
      onPick={pick}
      picked={slot?.startsAt ?? null}
      therapistTimeZone={therapistZone}
      visitorZone={visitorZone}
      minMonth={today.slice(0, 7)}
      maxMonth={maxMonth}
      today={today}
      notice={notice?.at === 'slots' ? notice.text : null}
      focusTitle={visited}
    />
  );
}

function StepSkeleton() {
  return <Skeleton className="h-96 rounded-xl" />;
}
