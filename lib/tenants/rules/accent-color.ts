import { wcagContrast } from 'culori';

/*
 * The check of a studio's accent colour (Branding.accentColor), apart from branding.ts: the check-in
 * info function serves the stored colour and would otherwise carry culori (about 40 KB) into every cold start.
 */

/** WCAG 2.2 AA for normal text: the accent colour is a button background under white text, and link text on white. */
export const MIN_ACCENT_CONTRAST = 4.5;
const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** The colour as stored (`#rrggbb`, lower case), or why a studio may not use it. */
export function checkAccentColor(input: string): { color: string } | { problem: string } {
  const color = input.trim().toLowerCase();
  if (!HEX_COLOR.test(color)) return { problem: `"${input}" is not a colour of the form #rrggbb, such as #0a58ca` };
  const contrast = wcagContrast(color, '#ffffff');
  if (contrast < MIN_ACCENT_CONTRAST) {
    return {
      problem:
        `${color} has a contrast of ${contrast.toFixed(2)}:1 against white; the page needs at least ${MIN_ACCENT_CONTRAST}:1 ` +
        '(white text on its buttons, links on white): choose a darker colour',
    };
  }
  return { color };
}
