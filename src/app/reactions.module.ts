import { Module, type DynamicModule } from '@nestjs/common';
import { ReactionCheckpoints } from '../storage/reactions/reaction-checkpoints.js';
import { REACTION_CONSUMER, ReactionFeed } from '../storage/reactions/reaction-feed.js';

/**
 * The feed from the event log to the EventBus, under this process's consumer name. Not global,
 * so that it starts after CqrsModule (global) has bound every `@EventsHandler`.
 */
@Module({})
export class ReactionsModule {
  static forRoot(consumer: string): DynamicModule {
    return {
      module: ReactionsModule,
      providers: [
        { provide: REACTION_CONSUMER, useValue: consumer },
        ReactionCheckpoints,
        ReactionFeed,
      ],
    };
  }
}
