import { ServiceGitSourceSet } from '../../events/git-sources.events.js';
import type { Decider } from '../../storage/decider.js';

/**
 * The principals who set a service's git source, each time (a webhook secret's rotation too), as
 * its stream's metadata records them: they chose what its webhook deploys and were shown, or
 * could have had, the secret it signs with. Folded from recorded events only (an event just
 * decided carries no actor yet): nothing is ever decided with this fold, so the runner's cache
 * of it holds only what the store returned. It decides nothing.
 */
export const gitSourceSetters: Decider<readonly string[], never> = {
  initialState: () => [],
  evolve(setters, event) {
    if (event.type !== ServiceGitSourceSet.type) return setters;
    const id = event.metadata?.actor.principalId;
    return id && !setters.includes(id) ? [...setters, id] : setters;
  },
  decide: () => [],
};
