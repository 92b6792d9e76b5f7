import type { Message } from '../message.ts';

/** Options of the `from*Messages` converters. */
export interface FromWireOptions {
  /**
   * Id of each mem message created, called once per message in output order. Default
   * `crypto.randomUUID()`. Pass a function reading from a list to keep the ids of messages that
   * went through a wire format and back.
   */
  generateId?: () => string;
  /** `createdAt` of each mem message created, called once per message. Default `Date.now()`. */
  now?: () => number;
}

/** A message as read from a wire format, before it gets an id and a creation time. */
export type MessageFields = Omit<Message, 'id' | 'createdAt'>;

/** Returns a function that gives wire-derived fields an id and a creation time. */
export function messageStamper(options: FromWireOptions = {}): (fields: MessageFields) => Message {
  const generateId = options.generateId ?? (() => crypto.randomUUID());
  const now = options.now ?? Date.now;
  return (fields) => ({ id: generateId(), ...fields, createdAt: now() });
}

/** Adds `value` under `key` to the fields' metadata (created on first use); skips `undefined`. */
export function setMetadata(fields: MessageFields, key: string, value: unknown): void {
  if (value === undefined) return;
  fields.metadata = { ...fields.metadata, [key]: value };
}
