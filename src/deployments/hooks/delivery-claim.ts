import { attributed, conflict } from '../../common/app-error.js';
import type { PendingEvent } from '../../eventstore/define-event.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import type { RequestContext } from '../../kernel/request-context.js';
import type { EventWriter } from '../../storage/event-writer.js';

/** One inbound delivery's claim: the event on its own stream, and whom a refusal is about. */
export interface DeliveryClaim {
  stream: string;
  event: PendingEvent;
  deliveryId: string;
  /** The hook or service the delivery was sent to: a replay's refusal is attributed to it. */
  attributedTo: string;
}

/**
 * Claims an inbound delivery (a deploy hook's, a git push's) once and for good: its event is
 * appended only while its stream does not exist (`no_stream`), so the same body again, however
 * it comes, is `409 replayed`.
 */
export async function claimDelivery(
  writer: EventWriter,
  claim: DeliveryClaim,
  ctx: RequestContext,
): Promise<void> {
  try {
    await writer.append(claim.stream, [claim.event], 'no_stream', ctx);
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) {
      throw attributed(
        conflict('This delivery was received before (replay)', {
          reason: 'replayed',
          deliveryId: claim.deliveryId,
        }),
        claim.attributedTo,
      );
    }
    throw error;
  }
}
