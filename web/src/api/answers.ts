// What each procedure answers, as the typed client package (client/) types it.
export type { Answer as AnswerOf } from '../../../client/src/answers.js';
