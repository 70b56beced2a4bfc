import { describe, expect, it } from 'vitest';
import { transactionStatus } from '../../db/queries/order-transactions.js';

describe('order transaction status', () => {
  const initial = (low: string) => ({ id: 'a', low, parentId: null });
  it('is active while an order is going, or offers a redraw that does not exist yet', () => {
    expect(transactionStatus([initial('requisition_created')])).toBe('active');
    expect(transactionStatus([initial('redraw_available')])).toBe('active');
    expect(transactionStatus([initial('redraw_available'), { id: 'b', low: 'appointment_scheduled', parentId: 'a' }])).toBe('active');
  });
  it('is completed once every order ended and one completed, cancelled when none did', () => {
    expect(transactionStatus([initial('completed')])).toBe('completed');
    expect(transactionStatus([initial('corrected')])).toBe('completed');
    expect(transactionStatus([initial('redraw_available'), { id: 'b', low: 'completed', parentId: 'a' }])).toBe('completed');
    expect(transactionStatus([initial('cancelled')])).toBe('cancelled');
    expect(transactionStatus([initial('redraw_available'), { id: 'b', low: 'cancelled', parentId: 'a' }])).toBe('cancelled');
    expect(transactionStatus([initial('sample_error')])).toBe('cancelled');
  });
});
