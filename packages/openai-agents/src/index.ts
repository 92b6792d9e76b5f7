export { AGENT_ITEM_KEY } from './agent-items.ts';
export { MemAgentsSession, type MemAgentsSessionOptions } from './mem-agents-session.ts';
