// Test support: Stripe's subscription schedules as Diván uses them (a change at the renewal, yearly →
// monthly): made `from_subscription`, their phases written (the current one to the period's end, then
// one period on another price), read with `expand[]=phases.items.price`, and released. The fake checks
// what Stripe checks of these requests; it does not play the phase's start (the sandbox's test clock
// does that, `sandbox-renewals.ts`).
import { itemsOf, pendProrations, taxRatesOf, type Item } from './billing';
import { list, str, type Form } from './form';
import { invalid, missingParam, newId, now, type StripeObject } from './objects';
import type { Route, RouteContext } from './routes';

type Phase = {
  start_date: number;
  end_date: number | null;
  items: { price: string; quantity: number }[];
  default_tax_rates: StripeObject[];
  proration_behavior: string;
};

const ID = '([A-Za-z0-9_]+)';
const INTERVALS = ['day', 'week', 'month', 'year'];

/** `POST /v1/subscription_schedules` with `from_subscription`: one phase, the current period as it is. */
function createSchedule(c: RouteContext): StripeObject {
  const subId = str(c.params, 'from_subscription');
  if (!subId) throw invalid('The fake Stripe makes schedules from a subscription: pass from_subscription.', { param: 'from_subscription' });
  const sub = c.ledger.get(c.owner, 'subscription', subId, 'from_subscription');
  if (sub.schedule) throw invalid(`You cannot migrate a subscription that is already attached to a schedule: \`${String(sub.schedule)}\`.`);
  if (sub.status === 'canceled') throw invalid('You cannot migrate a canceled subscription to a subscription schedule.');
  const item = itemsOf(sub)[0]!;
  const schedule = c.ledger.put(c.owner, {
    id: newId('sub_sched'),
    object: 'subscription_schedule',
    status: 'active',
    subscription: sub.id,
    released_subscription: null,
    customer: sub.customer,
    end_behavior: 'release',
    current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
    phases: [
      {
        start_date: item.current_period_start,
        end_date: item.current_period_end,
        items: [{ price: item.price.id, quantity: item.quantity }],
        default_tax_rates: structuredClone((sub.default_tax_rates as StripeObject[] | undefined) ?? []),
        proration_behavior: 'create_prorations',
      },
    ] satisfies Phase[],
    created: now(),
    livemode: false,
  });
  sub.schedule = schedule.id;
  return schedule;
}

/** `GET /v1/subscription_schedules/:id`, `expand[]=phases.items.price` giving each item's Price. */
function retrieveSchedule(c: RouteContext): StripeObject {
  const schedule = c.ledger.get(c.owner, 'subscription_schedule', c.ids[0]!, 'schedule');
  if (!list(c.params, 'expand').includes('phases.items.price')) return schedule;
  const phases = (schedule.phases as Phase[]).map((p) => ({
    ...p,
    items: p.items.map((i) => ({ ...i, price: structuredClone(c.ledger.get(c.owner, 'price', i.price)) })),
  }));
  return { ...schedule, phases };
}

/**
 * `POST /v1/subscription_schedules/:id`: `phases` replaced. As Stripe: the first must start when the
 * current phase started, each next one where the one before ends, only the last may go without an end
 * date (a `duration` instead), never both; a quantity changed in the current phase changes the
 * subscription now (prorated by the request's `proration_behavior`).
 */
function updateSchedule(c: RouteContext): StripeObject {
  const schedule = c.ledger.get(c.owner, 'subscription_schedule', c.ids[0]!, 'schedule');
  if (schedule.status !== 'active') throw invalid(`You cannot update a subscription schedule that is ${String(schedule.status)}.`);
  const sub = c.ledger.get(c.owner, 'subscription', String(schedule.subscription), 'subscription');
  const current = schedule.current_phase as { start_date: number; end_date: number };
  const asked = list(c.params, 'phases') as Form[];
  if (asked.length === 0) throw missingParam('phases');
  const phases: Phase[] = [];
  let from = current.start_date;
  asked.forEach((form, i) => {
    const param = (k: string) => `phases[${i}][${k}]`;
    const start = i === 0 ? Number(str(form, 'start_date') ?? NaN) : from;
    if (i === 0 && start !== current.start_date)
      throw invalid('You can not modify the start date of the current phase.', { param: param('start_date') });
    const endRaw = str(form, 'end_date');
    const duration = form.duration as Form | undefined;
    if (endRaw !== null && duration)
      throw invalid('You may only specify one of these parameters: duration, end_date.', { param: param('end_date') });
    let end: number | null = endRaw === null ? null : Number(endRaw);
    if (duration) {
      const interval = str(duration, 'interval') ?? '';
      if (!INTERVALS.includes(interval)) throw invalid(`Invalid duration interval: ${interval}`, { param: param('duration][interval') });
      end = null;
    }
    if (end === null && !duration && i < asked.length - 1)
      throw invalid('Only the last phase can go without an end_date.', { param: param('end_date') });
    if (end !== null && (!Number.isInteger(end) || end <= start))
      throw invalid('The end_date of a phase must be after its start_date.', { param: param('end_date') });
    const items = (list(form, 'items') as Form[]).map((it, j) => {
      const price = str(it, 'price');
      if (!price) throw missingParam(`${param('items')}[${j}][price]`);
      c.ledger.get(c.owner, 'price', price, `${param('items')}[${j}][price]`);
      const quantity = Number(str(it, 'quantity') ?? '1');
      if (!Number.isInteger(quantity) || quantity < 0)
        throw invalid(`Invalid integer: ${String(quantity)}`, { param: `${param('items')}[${j}][quantity]` });
      return { price, quantity };
    });
    if (items.length === 0) throw missingParam(param('items'));
    const rates = form.default_tax_rates;
    phases.push({
      start_date: start,
      end_date: end,
      items,
      default_tax_rates: rates === undefined ? [] : taxRatesOf(c, rates === '' ? [] : list(form, 'default_tax_rates')),
      proration_behavior: str(form, 'proration_behavior') ?? 'create_prorations',
    });
    from = end ?? from;
  });
  // The current phase's terms are the subscription's now.
  const item: Item = itemsOf(sub)[0]!;
  const now0 = phases[0]!.items[0]!;
  if (now0.price !== item.price.id)
    throw invalid('The fake Stripe keeps the current phase on the price in force (Diván changes the price at the renewal).', {
      param: 'phases[0][items][0][price]',
    });
  if (now0.quantity !== item.quantity) {
    const behavior = str(c.params, 'proration_behavior') ?? 'create_prorations';
    pendProrations(c, sub, {
      item,
      price: item.price,
      quantity: now0.quantity,
      changed: true,
      prorate: behavior === 'create_prorations',
      at: now(),
      cancelAtPeriodEnd: null,
    });
    item.quantity = now0.quantity;
  }
  const endBehavior = str(c.params, 'end_behavior');
  if (endBehavior) schedule.end_behavior = endBehavior;
  schedule.phases = phases;
  return schedule;
}

/** `POST /v1/subscription_schedules/:id/release`: the subscription goes on as it is, without a schedule. */
function releaseSchedule(c: RouteContext): StripeObject {
  const schedule = c.ledger.get(c.owner, 'subscription_schedule', c.ids[0]!, 'schedule');
  if (schedule.status !== 'active' && schedule.status !== 'not_started')
    throw invalid(`You cannot release a subscription schedule that is currently ${String(schedule.status)}.`);
  const subId = String(schedule.subscription);
  c.ledger.get(c.owner, 'subscription', subId).schedule = null;
  Object.assign(schedule, { status: 'released', released_subscription: subId, subscription: null, released_at: now() });
  return schedule;
}

export const SCHEDULE_ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/subscription_schedules$/, handle: createSchedule, platformOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/subscription_schedules/${ID}$`), handle: retrieveSchedule, platformOnly: true },
  { method: 'POST', pattern: new RegExp(`^/v1/subscription_schedules/${ID}$`), handle: updateSchedule, platformOnly: true },
  { method: 'POST', pattern: new RegExp(`^/v1/subscription_schedules/${ID}/release$`), handle: releaseSchedule, platformOnly: true },
];
