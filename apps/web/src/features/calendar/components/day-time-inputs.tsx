export { DayInput } from '@/components/ui/day-input';
export { TimeInput } from '@/components/ui/time-input';
