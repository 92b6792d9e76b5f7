import type { ModelMessage as ModelMessageV6 } from 'ai';
import type { GenerateTextResult, ModelMessage as ModelMessageV7, ToolSet } from 'ai-v7';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { modelConversation } from './__fixtures__/ai-sdk-conversation.ts';
import { modelConversationV7 } from './__fixtures__/ai-sdk-v7-conversation.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import type { ModelMessageInput, ModelMessageLike } from './ai-sdk-types.ts';

/*
 * Core's AI SDK types are structural (no dependency on `ai`). These checks, run by `tsc`, keep
 * what mem writes a `ModelMessage` of v6 and of v7, and every message of either major readable.
 */

describe('AI SDK types match both majors', () => {
  it('v6: written messages are ModelMessages, ModelMessages are read', () => {
    expectTypeOf<ModelMessageLike>().toExtend<ModelMessageV6>();
    expectTypeOf<ModelMessageV6>().toExtend<ModelMessageInput>();
    const sdk: ModelMessageV6[] = toModelMessages(fromModelMessages(modelConversation));
    expect(sdk).toStrictEqual(modelConversation);
  });

  it('v7: written messages are ModelMessages, ModelMessages and responseMessages are read', () => {
    expectTypeOf<ModelMessageLike>().toExtend<ModelMessageV7>();
    expectTypeOf<ModelMessageV7>().toExtend<ModelMessageInput>();
    expectTypeOf<GenerateTextResult<ToolSet, never, never>['responseMessages']>().toExtend<
      readonly ModelMessageInput[]
    >();
    const sdk: ModelMessageV7[] = toModelMessages(fromModelMessages(modelConversationV7));
    expect(sdk).toStrictEqual(modelConversationV7);
  });
});
