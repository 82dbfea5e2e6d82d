import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../../eventstore/event-store.port.js';
import { PersonalData } from './personal-data.js';
import { SubjectDataErased } from './privacy.events.js';

/** At start, deletes any key whose erasure was recorded but not carried out (crash between). */
@Injectable()
export class PrivacyReconciler implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly personal: PersonalData,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let from = 1n;
    for (;;) {
      const batch = await this.events.readAll(from, 5000);
      if (batch.length === 0) return;
      for (const e of batch) {
        if (e.type !== SubjectDataErased.type) continue;
        const subject = String(e.data.subject);
        if (!this.personal.isErased(subject)) this.personal.erase(subject);
      }
      from = batch[batch.length - 1].position + 1n;
    }
  }
}
