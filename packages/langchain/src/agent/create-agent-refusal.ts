import { MemError } from '@mem/core';
import { AGENT_MIDDLEWARE_BRAND } from './agent-middleware-types.ts';

/**
 * What the guard's hooks "return" (they only throw): not a model answer, so the guard cannot
 * stand in for a real `wrapModelCall` and `createAgent({ ...memSessionHooks(...) })` does not
 * type-check. The property name is the advice the compiler error shows.
 */
export interface UseMemMiddlewareWithCreateAgent {
  readonly 'memSessionHooks is for createReactAgent; in createAgent use middleware: [memMiddleware({ engine })]': true;
}

/**
 * What `memSessionHooks` returns under `middleware`: `createReactAgent` ignores the key, while
 * `createAgent` reads it as its middleware list and runs the guard first, which throws.
 */
export type CreateAgentRefusal = readonly [
  {
    readonly name: 'memSessionHooks';
    readonly beforeAgent: () => UseMemMiddlewareWithCreateAgent;
    readonly wrapModelCall: () => UseMemMiddlewareWithCreateAgent;
  },
];

export function createAgentRefusal(): CreateAgentRefusal {
  const refuse = (): never => {
    throw new MemError(
      'MEM_CONFIG',
      "[mem/langchain] memSessionHooks were passed to createAgent, which never calls a preModelHook or postModelHook: nothing would be stored or remembered. With createAgent (from 'langchain') use createAgent({ model, tools, middleware: [memMiddleware({ engine })] }); memSessionHooks are for createReactAgent from @langchain/langgraph/prebuilt.",
    );
  };
  const guard = {
    [AGENT_MIDDLEWARE_BRAND]: true,
    name: 'memSessionHooks' as const,
    beforeAgent: refuse,
    wrapModelCall: refuse,
  };
  return [guard];
}
