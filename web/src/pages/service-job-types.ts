import type { AnswerOf } from '../api/answers';

/** A job as `scheduledJobs` answers it, and a run as `jobRuns` does. */
export type Job = AnswerOf<'scheduledJobs'>['jobs'][number];
export type Run = AnswerOf<'jobRuns'>['runs'][number];

export const jobsOf = (answer: AnswerOf<'scheduledJobs'>): Job[] => answer.jobs;

export const runsOf = (answer: AnswerOf<'jobRuns'>): Run[] => answer.runs;

/** While something runs: the lists and a run's output are read again this often. */
export const POLL_MS = 2_000;
