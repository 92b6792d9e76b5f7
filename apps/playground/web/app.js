/**
 * The playground page: wires the profile editor, the replay control, the chart, the turn panels,
 * the question box, the user memory panel and the chat to the page state (state.js) and the server's JSON API (see
 * src/server/contract.ts). Plain ES modules, no build step.
 */
import { ApiError, api } from './api.js';
import { setupAsk } from './ask-panel.js';
import { createChart } from './chart.js';
import { setupChat } from './chat.js';
import { byId, el, formatNumber, formatTime } from './dom.js';
import { createHistoryList, PAGE } from './history-list.js';
import { createProfileEditor } from './profile-editor.js';
import { createReplayControl } from './replay-control.js';
import { createPageState } from './state.js';
import { setupUserPanel } from './user-panel.js';
import { renderContext, renderKbHits, renderStats, renderSummaries } from './views.js';

/**
 * @typedef {import('../src/server/contract.ts').ChatResponse} ChatResponse
 * @typedef {import('../src/server/contract.ts').ReplayRequest} ReplayRequest
 * @typedef {import('../src/server/contract.ts').ReplayResponse} ReplayResponse
 * @typedef {import('../src/server/contract.ts').TurnPageResponse} TurnPageResponse
 * @typedef {import('../src/replay/replay-views.ts').StoreKind} StoreKind
 */

const params = new URLSearchParams(location.search);
const presetSelect = /** @type {HTMLSelectElement} */ (byId('preset-select'));
const storeSelect = /** @type {HTMLSelectElement} */ (byId('store-select'));
const conversationSelect = /** @type {HTMLSelectElement} */ (byId('conversation-select'));
const sessionSelect = /** @type {HTMLSelectElement} */ (byId('session-select'));
const slider = /** @type {HTMLInputElement} */ (byId('turn-slider'));
const userInput = /** @type {HTMLInputElement} */ (byId('user-input'));

const state = createPageState();
/** @type {AbortController | undefined} */
let loadingTurn;

const chart = createChart(
  /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId('chart'))),
  (index) => selectTurn(index),
);
const history = createHistoryList(byId('history'), byId('history-count'), (request) =>
  api.turn(state.selected, { historyLimit: PAGE, ...request }),
);
const editor = createProfileEditor({
  editor: /** @type {HTMLTextAreaElement} */ (byId('profile-editor')),
  errors: byId('profile-errors'),
  onValid: () => void replayThen('keep'),
});

const userPanel = setupUserPanel({
  onForgotten() {
    ask.setReplayed(false, 'The user was forgotten: replay to build the memory again, then ask.');
    void history.mark([]);
  },
});

const ask = setupAsk({
  // The answer is about the thread as it is now: its last turn's history is the one to mark.
  async onAnswer(answer) {
    const last = state.turns.length - 1;
    if (state.selected !== last) await selectTurn(last);
    await history.mark(answer.present);
    void userPanel.refresh();
  },
  showMessages: (ids) => void history.reveal(ids),
  hitSource: (hit) => userPanel.hitSource(hit),
});

/** Which turn to show after the replay now starting. @type {'last' | 'first' | 'keep'} */
let after = 'last';

const replays = createReplayControl({
  status: byId('replay-status'),
  onStart() {
    ask.setReplayed(false, 'Replaying… ask when it is done.');
    userPanel.replaying();
    void history.mark([]);
  },
  async onReplayed(result, signal) {
    state.replayed(result);
    // The user's sessions label the knowledge hits of the turns shown below: set them first.
    const facts = userPanel.replayed(result);
    byId('conversation-title').textContent = result.conversationTitle;
    showThread();
    const last = state.turns.length - 1;
    const next = after === 'last' ? last : after === 'first' ? 0 : Math.min(state.selected, last);
    await selectTurn(Math.max(0, next));
    if (signal.aborted) return;
    ask.setReplayed(true);
    await facts;
  },
  onFailed(error) {
    const issues = error instanceof ApiError ? error.body?.issues : undefined;
    if (issues) editor.showIssues(issues);
    ask.setReplayed(false, 'The replay failed: fix it and replay, then ask.');
    userPanel.failed();
  },
});

/** @param {'last' | 'first' | 'keep'} select which turn to show after the replay */
function replayThen(select) {
  after = select;
  return replays.start(replayRequest());
}

/** The replay the controls describe. @returns {ReplayRequest} */
function replayRequest() {
  const [conversation, turns] = conversationSelect.value.split(':');
  const user = userInput.value.trim();
  return {
    profile: editor.text,
    // The options are the server's own `stores` (GET /api/config).
    store: /** @type {StoreKind} */ (storeSelect.value),
    conversation: conversation === 'generated' ? 'generated' : 'bundled',
    ...(turns ? { turns: Number(turns) } : {}),
    // With a user, each session is its own session of that user (the server checks the id).
    ...(user ? { user } : {}),
  };
}

/** Renders what depends on the whole thread: stats, sessions, slider, chart. */
function showThread() {
  renderStats(state.stats);
  fillSessions();
  slider.max = String(Math.max(0, state.turns.length - 1));
  chart.setTurns(state.turns);
}

function fillSessions() {
  const known = new Map(state.config?.conversation.sessions.map((s) => [s.id, s.title]));
  /** @type {Map<string, number>} */
  const firsts = new Map();
  for (const t of state.turns) if (!firsts.has(t.sessionId)) firsts.set(t.sessionId, t.index);
  sessionSelect.replaceChildren(
    ...[...firsts].map(([id, first], i) =>
      el('option', {
        value: id,
        'data-first-turn': first,
        text: `${i + 1}. ${known.get(id) ?? id}`,
      }),
    ),
  );
}

/** @param {number} index */
async function selectTurn(index) {
  const i = state.select(index);
  const turn = i === undefined ? undefined : state.turns[i];
  if (i === undefined || turn === undefined) return;
  slider.value = String(i);
  chart.select(i);
  const sessions = [...sessionSelect.options].map((o) => o.value);
  sessionSelect.value = turn.sessionId;
  byId('turn-label').textContent =
    `Turn ${i + 1} / ${state.turns.length} · session ${sessions.indexOf(turn.sessionId) + 1} · ${formatTime(turn.at)}`;
  loadingTurn?.abort();
  const controller = new AbortController();
  loadingTurn = controller;
  try {
    const detail = await api.turn(i, { historyLimit: PAGE }, controller.signal);
    if (!controller.signal.aborted) showDetail(detail);
  } catch (error) {
    if (!controller.signal.aborted)
      replays.setStatus('error', `error: ${/** @type {Error} */ (error).message}`);
  }
}

/** @param {TurnPageResponse} detail */
function showDetail(detail) {
  renderContext(detail.context, detail.turn.promptTokens);
  history.show(detail);
  renderSummaries(detail.summaries, (ids) => void history.reveal(ids));
  renderKbHits(detail.knowledgeHits, userPanel.hitSource);
}

/** @param {string} name */
function applyPreset(name) {
  const preset = state.config?.presets.find((p) => p.name === name);
  if (!preset) return;
  presetSelect.value = name;
  editor.setText(JSON.stringify(preset.profile, null, 2));
}

/** @param {ChatResponse} result */
function onChatTurn(result) {
  // The thread moved on: an earlier question's answer no longer describes it.
  ask.setReplayed(true);
  void history.mark([]);
  state.chatted(result);
  showThread();
  void selectTurn(state.turns.length - 1);
  void userPanel.refresh();
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let slideTimer;
slider.addEventListener('input', () => {
  clearTimeout(slideTimer);
  slideTimer = setTimeout(() => void selectTurn(Number(slider.value)), 40);
});
presetSelect.addEventListener('change', () => {
  applyPreset(presetSelect.value);
  void replayThen('keep');
});
storeSelect.addEventListener('change', () => void replayThen('keep'));
conversationSelect.addEventListener('change', () => void replayThen('last'));
userInput.addEventListener('change', () => void replayThen('last'));
sessionSelect.addEventListener('change', () => {
  const option = sessionSelect.selectedOptions[0];
  if (option) void selectTurn(Number(option.dataset.firstTurn));
});
byId('replay-all').addEventListener('click', () => void replayThen('last'));
byId('replay-step').addEventListener('click', () => {
  if (state.turns.length === 0) void replayThen('first');
  else void selectTurn(state.selected + 1);
});
document.addEventListener('keydown', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest('textarea, input:not([type=range]), select')) return;
  if (event.key === 'ArrowRight') void selectTurn(state.selected + 1);
  if (event.key === 'ArrowLeft') void selectTurn(state.selected - 1);
});

async function start() {
  let config;
  try {
    config = await api.config();
  } catch (error) {
    replays.setStatus(
      'error',
      `error: cannot load /api/config (${/** @type {Error} */ (error).message})`,
    );
    return;
  }
  state.configLoaded(config);
  const { presets, stores, defaultStore, chat, conversation } = config;
  byId('conversation-title').textContent = conversation.title;
  presetSelect.replaceChildren(
    ...presets.map((p) => el('option', { value: p.name, text: p.name })),
  );
  storeSelect.replaceChildren(...stores.map((s) => el('option', { value: s, text: s })));
  const store = params.get('store');
  storeSelect.value = store && stores.some((s) => s === store) ? store : defaultStore;
  userInput.value = params.get('user') ?? '';
  const wanted = params.get('conversation');
  if (wanted === 'generated') {
    const turns = Number(params.get('turns') ?? 10000) || 10000;
    const value = `generated:${turns}`;
    if (![...conversationSelect.options].some((o) => o.value === value)) {
      conversationSelect.append(
        el('option', { value, text: `generated, ${formatNumber(turns)} turns` }),
      );
    }
    conversationSelect.value = value;
  }
  const preset =
    params.get('preset') ??
    (presets.some((p) => p.name === 'combined') ? 'combined' : presets[0]?.name);
  if (preset !== undefined) applyPreset(preset);
  setupChat(chat, onChatTurn);
  renderStats(null);
  chart.setTurns([]);
  await replayThen('last');
}

void start();
