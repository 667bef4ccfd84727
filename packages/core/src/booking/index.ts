/** Open booking (issue 14): services and their rules, blocked dates, timespans and the free slots. */
export * from './booking.constants';
export * from './timespan';
export * from './booking-service.contracts';
export * from './booking-service.rules';
export * from './availability-override.contracts';
export * from './availability-override.rules';
export * from './slots';
export * from './slots-view';
export * from './public-booking.contracts';
export * from './holidays';
