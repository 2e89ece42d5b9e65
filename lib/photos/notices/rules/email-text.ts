/** Text that goes into emails: what a subject line and an HTML body need from participant-given values. */

/** A subject is one line: line breaks in a name would end the header. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

/** Text as HTML: every character that could open markup or end an attribute, as a character reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
