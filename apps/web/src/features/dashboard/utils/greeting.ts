/** Greeting by local hour: mornings run 6–13 h, afternoons 14–20 h, the rest is night. */
export function greetingFor(date: Date): string {
  const hour = date.getHours();
  if (hour >= 6 && hour <= 13) return 'Buenos días';
  if (hour >= 14 && hour <= 20) return 'Buenas tardes';
  return 'Buenas noches';
}
