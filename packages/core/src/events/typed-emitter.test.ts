import { describe, expect, expectTypeOf, it } from 'vitest';
import { type PayloadEvents, TypedEmitter } from './typed-emitter.ts';

interface Events {
  added: [id: string, position: number];
  cleared: [];
}

describe('TypedEmitter', () => {
  it('calls the listeners of an event in the order they were added, with its arguments', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    emitter.on('added', (id, position) => seen.push(`first ${id}@${position}`));
    emitter.on('added', (id) => seen.push(`second ${id}`));
    emitter.on('cleared', () => seen.push('cleared'));
    emitter.emit('added', 'a', 1);
    expect(seen).toEqual(['first a@1', 'second a']);
    emitter.emit('cleared');
    expect(seen).toEqual(['first a@1', 'second a', 'cleared']);
  });

  it('does nothing for an event nobody listens to', () => {
    expect(() => new TypedEmitter<Events>().emit('cleared')).not.toThrow();
  });

  it('removes a listener with the function on returns, or with off', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    const stop = emitter.on('added', (id) => seen.push(`on ${id}`));
    const listener = (id: string) => seen.push(`off ${id}`);
    emitter.on('added', listener);
    emitter.emit('added', 'a', 0);
    stop();
    emitter.off('added', listener);
    stop();
    emitter.emit('added', 'b', 0);
    expect(seen).toEqual(['on a', 'off a']);
  });

  it('keeps one registration of a function added twice', () => {
    const emitter = new TypedEmitter<Events>();
    let calls = 0;
    const listener = () => calls++;
    emitter.on('cleared', listener);
    const stop = emitter.on('cleared', listener);
    emitter.emit('cleared');
    expect(calls).toBe(1);
    stop();
    emitter.emit('cleared');
    expect(calls).toBe(1);
  });

  it('isolates a throwing listener from the emitter and the other listeners', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    emitter.on('added', () => {
      throw new Error('listener bug');
    });
    emitter.on('added', (id) => seen.push(id));
    expect(() => emitter.emit('added', 'a', 0)).not.toThrow();
    expect(seen).toEqual(['a']);
  });

  it('calls the listeners registered when an emit starts; changes count from the next emit', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    const late = (id: string) => seen.push(`late ${id}`);
    const removed = (id: string) => seen.push(`removed ${id}`);
    emitter.on('added', (id) => {
      seen.push(`first ${id}`);
      emitter.on('added', late);
      emitter.off('added', removed);
    });
    emitter.on('added', removed);
    emitter.emit('added', 'a', 0);
    expect(seen).toEqual(['first a', 'removed a']);
    emitter.emit('added', 'b', 0);
    expect(seen).toEqual(['first a', 'removed a', 'first b', 'late b']);
  });

  it('lets a listener emit again (re-entrant emits run to completion in place)', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    emitter.on('added', (id, position) => {
      seen.push(id);
      if (position < 2) emitter.emit('added', `${id}+`, position + 1);
    });
    emitter.on('added', (id) => seen.push(`after ${id}`));
    emitter.emit('added', 'a', 0);
    expect(seen).toEqual(['a', 'a+', 'a++', 'after a++', 'after a+', 'after a']);
  });

  it('types listeners by event, also for one-payload maps', () => {
    const emitter = new TypedEmitter<PayloadEvents<{ changed: { reason: 'added' | 'cleared' } }>>();
    let reason: string | undefined;
    emitter.on('changed', (payload) => {
      expectTypeOf(payload).toEqualTypeOf<{ reason: 'added' | 'cleared' }>();
      reason = payload.reason;
    });
    emitter.emit('changed', { reason: 'cleared' });
    expect(reason).toBe('cleared');
    // @ts-expect-error: an unknown event
    emitter.emit('other', {});
    // @ts-expect-error: a payload of the wrong shape
    emitter.emit('changed', { reason: 'erased' });
  });
});
