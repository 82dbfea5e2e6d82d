import { describe, expect, it } from '@jest/globals';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { systemContext } from '../kernel/request-context.js';
import type { Decider } from './decider.js';
import type { DeciderRunner, Decision } from './decider-runner.js';
import { decides } from './deciding-handler.js';

type Command = { kind: 'add'; itemId: string; name: string } | { kind: 'remove'; itemId: string };
const decider: Decider<{ names: string[] }, Command> = {
  initialState: () => ({ names: [] }),
  evolve: (state) => state,
  decide: (command) =>
    command.kind === 'add'
      ? [{ type: 'ItemAdded', schemaVersion: 1, data: { name: command.name } }]
      : [],
};

class AddItem extends ProcedureCommand<{ itemId: string; name: string }, { added: boolean }> {}
class RemoveItem extends ProcedureCommand<{ itemId: string }, { itemId: string; removed: true }> {}

/** A runner that records what it was asked and decides at once, without a store. */
function recordingRunner() {
  const calls: { stream: string; command: Command }[] = [];
  const runner = {
    run: (stream: string, d: typeof decider, command: Command): Promise<Decision<unknown>> => {
      calls.push({ stream, command });
      const events = d.decide(command, d.initialState());
      return Promise.resolve({ state: d.initialState(), events } as unknown as Decision<unknown>);
    },
  };
  return { calls, runner: runner as unknown as DeciderRunner };
}

const ctx = systemContext('spec');

describe('decides(decider)', () => {
  it('on: runs the planned command on the planned stream and answers from the decision', async () => {
    const Handler = decides(decider).on(AddItem, ({ input }) => ({
      stream: `item-${input.itemId}`,
      command: { kind: 'add', itemId: input.itemId, name: input.name },
      answer: (decision) => ({ added: decision.events.length > 0 }),
    }));
    const { calls, runner } = recordingRunner();
    const answer = await new Handler(runner).execute(new AddItem({ itemId: 'a', name: 'A' }, ctx));
    expect(calls).toEqual([{ stream: 'item-a', command: { kind: 'add', itemId: 'a', name: 'A' } }]);
    expect(answer).toEqual({ added: true });
  });

  it('removes: the remove command named by the id, answered removed whatever was decided', async () => {
    const Handler = decides(decider).removes(RemoveItem, 'itemId', (id) => `item-${id}`);
    const { calls, runner } = recordingRunner();
    const answer = await new Handler(runner).execute(new RemoveItem({ itemId: 'b' }, ctx));
    expect(calls).toEqual([{ stream: 'item-b', command: { kind: 'remove', itemId: 'b' } }]);
    expect(answer).toEqual({ itemId: 'b', removed: true });
  });
});
