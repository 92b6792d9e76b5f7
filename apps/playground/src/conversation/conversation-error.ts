/** One problem in a conversation file: where it is (a JSON path) and what to fix. */
export interface ConversationIssue {
  path: string;
  message: string;
}

/**
 * A conversation file that cannot be read, parsed or understood. The message names the file and
 * every bad path; the CLI prints it as is (no stack trace) and exits with code 2.
 */
export class ConversationFileError extends Error {
  readonly file: string;
  readonly issues: readonly ConversationIssue[];

  constructor(
    file: string,
    summary: string,
    issues: readonly ConversationIssue[] = [],
    options: { cause?: unknown } = {},
  ) {
    const shown = issues.slice(0, 20);
    const more =
      issues.length > shown.length ? `\n  ... and ${issues.length - shown.length} more` : '';
    const lines = shown.map((i) => `\n  - ${i.path || '(root)'}: ${i.message}`).join('');
    super(`[mem/playground] ${file}: ${summary}${lines}${more}`, options);
    this.name = 'ConversationFileError';
    this.file = file;
    this.issues = issues;
  }

  static isInstance(error: unknown): error is ConversationFileError {
    return error instanceof Error && error.name === 'ConversationFileError' && 'issues' in error;
  }
}
