import { Inject, Injectable } from '@nestjs/common';
import {
  PRIMARY_STORE,
  type CollectionSpec,
  type Doc,
  type ReadStore,
} from '../../readstore/read-store.port.js';

export const REACTION_CHECKPOINTS = 'reaction_checkpoints';
export const REACTION_CHECKPOINTS_COLLECTION: CollectionSpec = { name: REACTION_CHECKPOINTS };

/** `reaction_checkpoints`: one document per reaction feed (id: its consumer name). */
export interface ReactionCheckpointDoc extends Doc {
  /** Global position of the last event whose reactions finished. */
  position: number;
}

/**
 * Where each reaction feed keeps its position. Not derived from events (a rebuild of the read
 * models must not touch it), so it lives in the primary store.
 */
@Injectable()
export class ReactionCheckpoints {
  constructor(@Inject(PRIMARY_STORE) private readonly reads: ReadStore) {}

  /** The stored position, or null when the consumer never ran. */
  async position(consumer: string): Promise<bigint | null> {
    await this.reads.ensureCollection(REACTION_CHECKPOINTS_COLLECTION);
    const doc = await this.collection().get(consumer);
    return doc ? BigInt(doc.position) : null;
  }

  /** Stores `position` unless a later one is stored (replicas of one consumer share it). */
  async advance(consumer: string, position: bigint): Promise<void> {
    await this.reads.transaction(async (session) => {
      const checkpoints = session.collection<ReactionCheckpointDoc>(REACTION_CHECKPOINTS);
      const stored = await checkpoints.get(consumer);
      if (stored && BigInt(stored.position) >= position) return;
      await checkpoints.put({ id: consumer, position: Number(position) });
    });
  }

  private collection() {
    return this.reads.collection<ReactionCheckpointDoc>(REACTION_CHECKPOINTS);
  }
}
