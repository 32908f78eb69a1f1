/** REPL ids are CUID2s, like the hosted product's, so clients that validate them keep working. */
import { init } from '@paralleldrive/cuid2';

export const createReplId: () => string = init({ length: 24 });
