/**
 * What follows the choice of an hour (the form, the code, the result), loaded when the visitor picks
 * one: the service page opens with the calendar only (scripts/bundle-report.mjs, 80 KB).
 */
export { BookingForm } from './booking-form';
export { CodeStep } from './code-step';
export { BookedScreen, PaymentScreen } from './booking-details';
