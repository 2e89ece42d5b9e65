import {
  ORDER_STATES,
  ORDER_TRANSITIONS,
  type OrderState,
  type OrderTransitionName,
  holdsPendingPayment,
  orderState,
  pendingPaymentEffect,
  statusOfState,
  transitionApplies,
} from '#lib/payments/rules/order-lifecycle';

const TRANSITIONS = Object.entries(ORDER_TRANSITIONS) as [
  OrderTransitionName,
  (typeof ORDER_TRANSITIONS)[OrderTransitionName],
][];

describe('order lifecycle table', () => {
  it('creates orders only by reserve', () => {
    expect(TRANSITIONS.filter(([, transition]) => transition.from.length === 0).map(([name]) => name)).toEqual([
      'reserve',
    ]);
    expect(transitionApplies('reserve', undefined)).toBe(true);
    expect(ORDER_STATES.some((state) => transitionApplies('reserve', state))).toBe(false);
  });

  it('leaves paid orders alone: no transition starts from paid', () => {
    expect(TRANSITIONS.filter(([, transition]) => (transition.from as readonly OrderState[]).includes('paid'))).toEqual(
      [],
    );
  });

  it('reaches every state from a reservation', () => {
    const reached = new Set<OrderState>(['reserved']);
    for (let round = 0; round < ORDER_STATES.length; round += 1) {
      for (const [, transition] of TRANSITIONS) {
        if ((transition.from as readonly OrderState[]).some((state) => reached.has(state))) {
          for (const to of transition.to) if (to !== 'deleted') reached.add(to);
        }
      }
    }
    expect([...reached].sort()).toEqual([...ORDER_STATES].sort());
  });

  it('takes a spot exactly where an order becomes pending from none or from an ended order, and gives it back where one stops holding it', () => {
    const holdsSpot = (state: OrderState | 'deleted' | undefined) =>
      state !== undefined &&
      state !== 'deleted' &&
      statusOfState(state) !== 'expired' &&
      statusOfState(state) !== 'canceled';
    for (const [name, transition] of TRANSITIONS) {
      const before = transition.from.length === 0 ? [undefined] : transition.from;
      for (const from of before) {
        for (const to of transition.to) {
          const expected = holdsSpot(from) === holdsSpot(to) ? 'keep' : holdsSpot(to) ? 'take' : 'give_back';
          expect(`${name}: ${transition.spot}`).toBe(`${name}: ${expected}`);
        }
      }
    }
  });

  it('counts an order as a pending payment exactly while it is reserved, open or replacing', () => {
    for (const [name, transition] of TRANSITIONS) {
      const before = transition.from.length === 0 ? [undefined] : transition.from;
      for (const from of before) {
        for (const to of transition.to) {
          const expected = Number(holdsPendingPayment(to)) - Number(holdsPendingPayment(from));
          expect(`${name}: ${pendingPaymentEffect(name)}`).toBe(`${name}: ${expected}`);
        }
      }
    }
  });
});

describe('orderState', () => {
  it.each([
    [{ status: 'pending' as const }, 'reserved'],
    [{ status: 'pending' as const, sessionId: 'cs_1' }, 'open'],
    [{ status: 'pending' as const, replacingBy: 'claim', replacedSessionId: 'cs_1' }, 'replacing'],
    [{ status: 'paid' as const, sessionId: 'cs_1' }, 'paid'],
    [{ status: 'expired' as const, replacingBy: 'stale' }, 'expired'],
    [{ status: 'canceled' as const }, 'canceled'],
  ])('reads %j as %s', (order, state) => {
    expect(orderState(order)).toBe(state);
  });

  it.each(ORDER_STATES)('shows %s with the status the API documents', (state) => {
    expect(['pending', 'paid', 'expired', 'canceled']).toContain(statusOfState(state));
  });
});
