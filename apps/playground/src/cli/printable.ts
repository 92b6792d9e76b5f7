/**
 * Control characters (C0 except newline and tab, DEL, C1) and the bidirectional overrides that
 * could rewrite or disguise what a terminal shows.
 */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text safe to print on a terminal: every control character becomes a visible `\u{...}` escape,
 * so text read from a file (a JSON parser's excerpt, a conversation title) never sends NUL bytes
 * or escape sequences to the terminal.
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`,
  );
}
