/**
 * The playground page: wires the profile editor, the replay controls, the chart, the turn panels,
 * the question box and the chat to the server's JSON API (see src/server). Plain ES modules, no
 * build step.
 */
import { api } from './api.js';
import { setupAsk } from './ask-panel.js';
import { createChart } from './chart.js';
import { setupChat } from './chat.js';
import { byId, el, formatNumber, formatTime } from './dom.js';
import { createHistoryList, PAGE } from './history-list.js';
import { createProfileEditor } from './profile-editor.js';
import { renderContext, renderKbHits, renderStats, renderSummaries } from './views.js';

const params = new URLSearchParams(location.search);
const presetSelect = /** @type {HTMLSelectElement} */ (byId('preset-select'));
const storeSelect = /** @type {HTMLSelectElement} */ (byId('store-select'));
const conversationSelect = /** @type {HTMLSelectElement} */ (byId('conversation-select'));
const sessionSelect = /** @type {HTMLSelectElement} */ (byId('session-select'));
const slider = /** @type {HTMLInputElement} */ (byId('turn-slider'));
const status = byId('replay-status');

const state = {
  /** @type {any} */ config: null,
  /** @type {any[]} */ turns: [],
  /** @type {any} */ stats: null,
  selected: 0,
  /** @type {AbortController | undefined} */ replaying: undefined,
  /** @type {AbortController | undefined} */ loadingTurn: undefined,
};

const chart = createChart(/** @type {any} */ (byId('chart')), (index) => selectTurn(index));
const history = createHistoryList(byId('history'), byId('history-count'), (request) =>
  api.turn(state.selected, { historyLimit: PAGE, ...request }),
);
const editor = createProfileEditor({
  editor: /** @type {HTMLTextAreaElement} */ (byId('profile-editor')),
  errors: byId('profile-errors'),
  onValid: () => void runReplay('keep'),
});

const ask = setupAsk({
  // The answer is about the thread as it is now: its last turn's history is the one to mark.
  async onAnswer(answer) {
    const last = state.turns.length - 1;
    if (state.selected !== last) await selectTurn(last);
    await history.mark(answer.present);
  },
  showMessages: (ids) => void history.reveal(ids),
});

/** @param {'running' | 'done' | 'error'} kind @param {string} text */
function setStatus(kind, text) {
  status.dataset.state = kind;
  status.textContent = text;
}

/** @param {'last' | 'first' | 'keep'} select which turn to show after the replay */
async function runReplay(select) {
  state.replaying?.abort();
  const controller = new AbortController();
  state.replaying = controller;
  setStatus('running', 'Replaying…');
  ask.setReplayed(false, 'Replaying… ask when it is done.');
  void history.mark([]);
  const [conversation, turns] = conversationSelect.value.split(':');
  try {
    const result = await api.replay(
      {
        profile: editor.text,
        store: storeSelect.value,
        conversation: conversation ?? 'bundled',
        ...(turns ? { turns: Number(turns) } : {}),
      },
      controller.signal,
    );
    if (controller.signal.aborted) return;
    state.turns = result.turns;
    state.stats = result.stats;
    renderStats(result.stats);
    byId('conversation-title').textContent = result.conversationTitle ?? '';
    fillSessions();
    slider.max = String(Math.max(0, state.turns.length - 1));
    chart.setTurns(state.turns);
    const last = state.turns.length - 1;
    const next = select === 'last' ? last : select === 'first' ? 0 : Math.min(state.selected, last);
    const ms = Math.round(result.stats.totalMs);
    setStatus('done', `done · ${formatNumber(state.turns.length)} turns in ${formatNumber(ms)} ms`);
    await selectTurn(Math.max(0, next));
    if (!controller.signal.aborted) ask.setReplayed(true);
  } catch (error) {
    if (controller.signal.aborted) return;
    const e = /** @type {any} */ (error);
    if (e.body?.issues) editor.showIssues(e.body.issues);
    setStatus('error', `error: ${e.message}`);
    ask.setReplayed(false, 'The replay failed: fix it and replay, then ask.');
  }
}

function fillSessions() {
  const known = new Map(
    state.config.conversation.sessions.map((/** @type {any} */ s) => [s.id, s.title]),
  );
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
  if (state.turns.length === 0) return;
  const i = Math.min(Math.max(0, Math.round(index)), state.turns.length - 1);
  state.selected = i;
  slider.value = String(i);
  chart.select(i);
  const turn = state.turns[i];
  const sessions = [...sessionSelect.options].map((o) => o.value);
  sessionSelect.value = turn.sessionId;
  byId('turn-label').textContent =
    `Turn ${i + 1} / ${state.turns.length} · session ${sessions.indexOf(turn.sessionId) + 1} · ${formatTime(turn.at)}`;
  state.loadingTurn?.abort();
  const controller = new AbortController();
  state.loadingTurn = controller;
  try {
    const detail = await api.turn(i, { historyLimit: PAGE }, controller.signal);
    if (!controller.signal.aborted) showDetail(detail);
  } catch (error) {
    if (!controller.signal.aborted)
      setStatus('error', `error: ${/** @type {Error} */ (error).message}`);
  }
}

/** @param {any} detail a TurnDetail */
function showDetail(detail) {
  renderContext(detail.context);
  history.show(detail);
  renderSummaries(detail.summaries, (ids) => void history.reveal(ids));
  renderKbHits(detail.knowledgeHits);
}

/** @param {string} name */
function applyPreset(name) {
  const preset = state.config.presets.find((/** @type {any} */ p) => p.name === name);
  if (!preset) return;
  presetSelect.value = name;
  editor.setText(JSON.stringify(preset.profile, null, 2));
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let slideTimer;
slider.addEventListener('input', () => {
  clearTimeout(slideTimer);
  slideTimer = setTimeout(() => void selectTurn(Number(slider.value)), 40);
});
presetSelect.addEventListener('change', () => {
  applyPreset(presetSelect.value);
  void runReplay('keep');
});
storeSelect.addEventListener('change', () => void runReplay('keep'));
conversationSelect.addEventListener('change', () => void runReplay('last'));
sessionSelect.addEventListener('change', () => {
  const option = sessionSelect.selectedOptions[0];
  if (option) void selectTurn(Number(option.dataset.firstTurn));
});
byId('replay-all').addEventListener('click', () => void runReplay('last'));
byId('replay-step').addEventListener('click', () => {
  if (state.turns.length === 0) void runReplay('first');
  else void selectTurn(state.selected + 1);
});
document.addEventListener('keydown', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest('textarea, input:not([type=range]), select')) return;
  if (event.key === 'ArrowRight') void selectTurn(state.selected + 1);
  if (event.key === 'ArrowLeft') void selectTurn(state.selected - 1);
});

/** @param {{ reply: string, turn: any, detail: any }} result */
function onChatTurn(result) {
  // The thread moved on: an earlier question's answer no longer describes it.
  ask.setReplayed(true);
  void history.mark([]);
  state.turns.push(result.turn);
  const s = state.stats;
  if (s) {
    s.turns += 1;
    s.tokensStored += result.turn.historyTokens;
    s.tokensSent += result.turn.promptTokens;
    for (const e of result.turn.events)
      s[e.kind === 'compaction' ? 'compactions' : 'erasures'] += 1;
    renderStats(s);
  }
  fillSessions();
  slider.max = String(state.turns.length - 1);
  chart.setTurns(state.turns);
  void selectTurn(state.turns.length - 1);
}

async function start() {
  try {
    state.config = await api.config();
  } catch (error) {
    setStatus('error', `error: cannot load /api/config (${/** @type {Error} */ (error).message})`);
    return;
  }
  const { presets, stores, chat, conversation } = state.config;
  byId('conversation-title').textContent = conversation.title;
  presetSelect.replaceChildren(
    ...presets.map((/** @type {any} */ p) => el('option', { value: p.name, text: p.name })),
  );
  storeSelect.replaceChildren(
    ...stores.map((/** @type {string} */ s) => el('option', { value: s, text: s })),
  );
  const store = params.get('store');
  if (store && stores.includes(store)) storeSelect.value = store;
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
    (presets.some((/** @type {any} */ p) => p.name === 'combined') ? 'combined' : presets[0]?.name);
  applyPreset(preset);
  setupChat(chat, onChatTurn);
  renderStats(null);
  chart.setTurns([]);
  await runReplay('last');
}

void start();
