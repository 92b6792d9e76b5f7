/**
 * The live chat box. When the server has a model configured, each message becomes a new turn of
 * the replayed thread; otherwise the box explains how to enable it.
 */
import { api } from './api.js';
import { byId, el } from './dom.js';

/**
 * @typedef {import('../src/server/contract.ts').ChatResponse} ChatResponse
 * @typedef {import('../src/server/contract.ts').PublicChatConfig} PublicChatConfig
 */

/**
 * @param {PublicChatConfig} config
 * @param {(result: ChatResponse) => void} onTurn
 */
export function setupChat(config, onTurn) {
  const input = /** @type {HTMLTextAreaElement} */ (byId('chat-input'));
  const send = /** @type {HTMLButtonElement} */ (byId('chat-send'));
  const help = byId('chat-help');
  const log = byId('chat-log');
  const form = /** @type {HTMLFormElement} */ (byId('chat-form'));

  if (!config.enabled) {
    help.textContent = config.help;
    help.hidden = false;
    input.disabled = true;
    send.disabled = true;
    input.placeholder = 'Chat is off: see above';
    return;
  }
  help.hidden = true;
  input.placeholder = `Message ${config.model} (${config.provider})…`;

  /** @param {string} role @param {string} text */
  const line = (role, text) => {
    const item = el('li', { class: `chat-${role}` }, [
      el('span', { class: 'role', text: role }),
      el('p', { text }),
    ]);
    log.append(item);
    log.scrollTop = log.scrollHeight;
    return item;
  };

  async function submit() {
    const message = input.value.trim();
    if (!message || send.disabled) return;
    input.value = '';
    send.disabled = true;
    line('user', message);
    const waiting = line('assistant', '…');
    try {
      const result = await api.chat(message);
      waiting.querySelector('p')?.replaceChildren(result.reply);
      onTurn(result);
    } catch (error) {
      waiting.classList.add('chat-error');
      waiting.querySelector('p')?.replaceChildren(`Error: ${/** @type {Error} */ (error).message}`);
    } finally {
      send.disabled = false;
      input.focus();
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  });
}
