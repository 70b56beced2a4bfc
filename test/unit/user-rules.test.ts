import { describe, expect, it } from 'vitest';
import { isIanaTimeZone, isRealDate, personalDataIn } from '../../domain/users.js';

describe('isRealDate', () => {
  it.each(['2024-02-29', '1990-01-01', '2000-12-31'])('accepts %s', (d) => expect(isRealDate(d)).toBe(true));
  it.each(['2023-02-29', '2024-13-01', '2024-00-10', '2024-1-1', '01/02/2024', '2024-01-01T00:00:00Z', ''])('refuses %s', (d) =>
    expect(isRealDate(d)).toBe(false),
  );
});

describe('isIanaTimeZone', () => {
  it.each(['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata'])('accepts %s', (tz) =>
    expect(isIanaTimeZone(tz)).toBe(true),
  );
  it.each(['Mars/Olympus', '+01:00', 'Europe/', '', 'Berlin; drop table', 'europe berlin'])('refuses %s', (tz) =>
    expect(isIanaTimeZone(tz)).toBe(false),
  );
});

describe('personalDataIn (client_user_id must not carry personal data)', () => {
  it.each([
    ['jane@example.com', 'email address'],
    ['user: j.doe+test@mail.co.uk', 'email address'],
    ['+1 415 555 2671', 'phone number'],
    ['+4915112345678', 'phone number'],
    ['(415) 555-2671', 'phone number'],
    ['415-555-2671', 'phone number'],
  ])('finds %s', (value, kind) => expect(personalDataIn(value)).toBe(kind));

  it.each(['patient-123', '1234567890', '42', 'a1b2c3d4-e5f6', 'user_2024-05-01', 'ORD-555-1234'])('lets %s through', (value) =>
    expect(personalDataIn(value)).toBeNull(),
  );
});
