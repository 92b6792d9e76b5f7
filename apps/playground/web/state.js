/**
 * The page's state: the server's config, the turns of the thread shown (the last replay's, then
 * the chat's), the thread's stats as the server aggregated them, and the selected turn. It only
 * changes through the updates below; the page renders from it and never recomputes the stats.
 */

/**
 * @typedef {import('../src/server/contract.ts').ChatResponse} ChatResponse
 * @typedef {import('../src/server/contract.ts').ConfigResponse} ConfigResponse
 * @typedef {import('../src/server/contract.ts').ReplayResponse} ReplayResponse
 * @typedef {import('../src/replay/replay-views.ts').ReplayStats} ReplayStats
 * @typedef {import('../src/replay/replay-views.ts').TurnSnapshot} TurnSnapshot
 */

export function createPageState() {
  /** @type {ConfigResponse | undefined} */
  let config;
  /** @type {TurnSnapshot[]} */
  let turns = [];
  /** @type {ReplayStats | null} */
  let stats = null;
  let selected = 0;

  return {
    /** GET /api/config's answer; undefined until it loaded. */
    get config() {
      return config;
    },
    /** @type {readonly TurnSnapshot[]} */
    get turns() {
      return turns;
    },
    /** The thread's stats from the server (null before the first replay). */
    get stats() {
      return stats;
    },
    /** The selected turn (0-based). */
    get selected() {
      return selected;
    },
    /** @param {ConfigResponse} loaded */
    configLoaded(loaded) {
      config = loaded;
    },
    /** A replay answered: its turns and stats replace the thread's. @param {ReplayResponse} result */
    replayed(result) {
      turns = result.turns;
      stats = result.stats;
    },
    /** A chat turn continued the thread: one turn more, and the server's new stats. @param {ChatResponse} result */
    chatted(result) {
      turns = [...turns, result.turn];
      stats = result.stats;
    },
    /**
     * Selects a turn, clamped to the thread; undefined when there is none.
     * @param {number} index
     */
    select(index) {
      if (turns.length === 0) return undefined;
      selected = Math.min(Math.max(0, Math.round(index)), turns.length - 1);
      return selected;
    },
  };
}

/** @typedef {ReturnType<typeof createPageState>} PageState */
