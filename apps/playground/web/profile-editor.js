/**
 * The profile editor: JSON in a textarea, validated live (debounced) by the server with core's
 * own parser, issues listed by path. Calls `onValid` with each new valid text.
 */
import { api } from './api.js';
import { el } from './dom.js';

const DEBOUNCE_MS = 300;

/**
 * @param {{ editor: HTMLTextAreaElement, errors: HTMLElement, onValid: (text: string) => void }} parts
 */
export function createProfileEditor({ editor, errors, onValid }) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {AbortController | undefined} */
  let pending;
  let accepted = '';

  /** @param {{ path: string, message: string }[]} issues */
  function showIssues(issues) {
    editor.setAttribute('aria-invalid', issues.length > 0 ? 'true' : 'false');
    errors.replaceChildren(
      ...issues.map((issue) => {
        const item = el('li', {
          class: 'profile-error',
          'data-path': issue.path,
          title: 'Click to find the field',
          text: `${issue.path || '(root)'}: ${issue.message}`,
        });
        item.addEventListener('click', () => focusPath(issue.path));
        return item;
      }),
    );
  }

  /**
   * Selects the last key of the path in the editor, or the position a JSON error names.
   * @param {string} path
   */
  function focusPath(path) {
    const text = editor.value;
    const key = path
      .split(/[.[\]]/)
      .filter((part) => part && !/^\d+$/.test(part))
      .at(-1);
    let at = key ? text.indexOf(`"${key}"`) : -1;
    let length = key ? key.length + 2 : 1;
    if (at === -1) {
      const position = /position (\d+)/.exec(errors.textContent ?? '');
      at = position ? Number(position[1]) : 0;
      length = 1;
    }
    editor.focus();
    editor.setSelectionRange(at, at + length);
  }

  async function validate() {
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    const text = editor.value;
    try {
      const result = await api.validate(text, controller.signal);
      if (controller.signal.aborted) return;
      if (result.ok) {
        showIssues([]);
        if (text !== accepted) {
          accepted = text;
          onValid(text);
        }
      } else showIssues(result.issues);
    } catch (error) {
      if (controller.signal.aborted) return;
      showIssues([
        { path: '', message: `validation failed: ${/** @type {Error} */ (error).message}` },
      ]);
    }
  }

  editor.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(validate, DEBOUNCE_MS);
  });
  editor.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || event.shiftKey) return;
    event.preventDefault();
    editor.setRangeText('  ', editor.selectionStart, editor.selectionEnd, 'end');
    editor.dispatchEvent(new Event('input'));
  });

  return {
    /**
     * Replaces the text (a preset); the caller runs the replay itself.
     * @param {string} text
     */
    setText(text) {
      clearTimeout(timer);
      pending?.abort();
      editor.value = text;
      accepted = text;
      showIssues([]);
    },
    /** The text of the last valid profile. */
    get text() {
      return accepted;
    },
    /** @param {{ path: string, message: string }[]} issues */
    showIssues,
  };
}
