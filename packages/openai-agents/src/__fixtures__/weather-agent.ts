import { Agent, OpenAIResponsesModel, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

// Tests make no network call but to the loopback server: no trace export.
setTracingDisabled(true);

/** An agent with one tool, whose model is the Responses API at `baseURL`. */
export function weatherAgent(baseURL: string) {
  const client = new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });
  const getWeather = tool({
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}, 21°C.`,
  });
  return new Agent({
    name: 'Weather',
    instructions: 'Answer questions about the weather.',
    tools: [getWeather],
    model: new OpenAIResponsesModel(client, 'gpt-test'),
  });
}
