/**
 * Wire shapes of the user responses (CONTRACT §1): they live with the input schemas in schemas.ts
 * (the user serialiser is typed by them); gathered here so every resource has its responses.ts.
 */
export { clientFacingProvider, clientFacingUser, clientFacingUserKey, paginatedUsers, providerWithStatus, userSuccess } from './schemas.js';
