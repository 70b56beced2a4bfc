/** Rules about user fields, shared by the API and anything else that accepts user data. */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-mm-dd (rejects 2023-02-30). */
export function isRealDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

const TZ_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** An identifier from the IANA tz database, such as `Europe/Berlin` or `UTC` (offsets like `+01:00` are not). */
export function isIanaTimeZone(value: string): boolean {
  if (!TZ_SHAPE.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const isSpaceOrAt = (ch: string | undefined) => ch === undefined || ch === '@' || /\s/.test(ch);

/**
 * Whether `value` contains an e-mail address anywhere (`x@y.z`: a character before the `@`, then a run of
 * characters without white space or `@` with a dot inside it). One pass: each run after an `@` is read once.
 */
export function containsEmail(value: string): boolean {
  let at = value.indexOf('@');
  while (at !== -1) {
    if (!isSpaceOrAt(value[at - 1])) {
      let end = at + 1;
      let dotInside = false;
      while (end < value.length && !isSpaceOrAt(value[end])) {
        if (value[end] === '.' && end >= at + 2 && end + 1 < value.length && !isSpaceOrAt(value[end + 1])) dotInside = true;
        end++;
      }
      if (dotInside) return true;
      at = value.indexOf('@', end);
    } else {
      at = value.indexOf('@', at + 1);
    }
  }
  return false;
}

/** `+` followed by 7–15 digits, allowing the usual separators: an international phone number. */
const INTL_PHONE_RE = /^\+[\d\s().-]{7,24}$/;
/** National formats with separators, e.g. (555) 123-4567, 555-123-4567, 030 1234 5678. */
const FORMATTED_PHONE_RE = /^\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,5}$/;

/**
 * `client_user_id` must not carry personal data. E-mail addresses and phone numbers are refused.
 * A bare run of digits is allowed: customers' own numeric ids look exactly like that.
 */
export function personalDataIn(clientUserId: string): 'email address' | 'phone number' | null {
  const v = clientUserId.trim();
  if (containsEmail(v)) return 'email address';
  const digits = v.replace(/\D/g, '').length;
  if (INTL_PHONE_RE.test(v) && digits >= 7 && digits <= 15) return 'phone number';
  if (FORMATTED_PHONE_RE.test(v) && digits >= 9 && digits <= 15) return 'phone number';
  return null;
}
