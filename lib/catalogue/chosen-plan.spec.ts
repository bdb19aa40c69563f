import { chosenPlanId } from './chosen-plan.js';

describe('chosenPlanId', () => {
  it('reads the plan of a same-site target, wherever it leads', () => {
    expect(chosenPlanId('/dashboard/user/subscription?plan=team-monthly')).toBe('team-monthly');
    expect(chosenPlanId('/dashboard/tools/hitscope-for-apps?x=1&plan=solo-lifetime#downloads')).toBe('solo-lifetime');
  });

  it('names no plan for a target without one, a malformed id, or a target that is not same-site', () => {
    expect(chosenPlanId(null)).toBeNull();
    expect(chosenPlanId('/dashboard/lounge')).toBeNull();
    expect(chosenPlanId('/dashboard/user/subscription?plan=')).toBeNull();
    expect(chosenPlanId('/dashboard/user/subscription?plan=<script>')).toBeNull();
    expect(chosenPlanId('https://evil.example/?plan=team-monthly')).toBeNull();
    expect(chosenPlanId('//evil.example/?plan=team-monthly')).toBeNull();
  });
});
