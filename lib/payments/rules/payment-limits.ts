/** A status or retry token as sent back (issued tokens are far shorter). */
export const CHECKOUT_TOKEN_MAX_LENGTH = 200;

/** The check-in page's return URL of a paid check-in. */
export const RETURN_URL_MAX_LENGTH = 2000;
