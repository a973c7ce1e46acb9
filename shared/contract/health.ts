import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });

export const presentHealth = (): z.input<typeof healthResponse> => ({ status: 'ok' });

export const readinessResponse = z.object({
  status: z.literal('ready'),
  checks: z.record(z.literal('up')),
});

export function presentReadiness(checked: string[]): z.input<typeof readinessResponse> {
  return { status: 'ready', checks: Object.fromEntries(checked.map((name) => [name, 'up' as const])) };
}
