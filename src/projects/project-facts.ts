import { Injectable } from '@nestjs/common';
import { notFound } from '../common/app-error.js';
import { DEFAULT_PROJECT, projectStream } from '../events/projects.events.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { projectDecider } from './project.decider.js';

/** Facts about projects as their streams hold them, for commands that place things in one. */
@Injectable()
export class ProjectFacts {
  constructor(private readonly runner: DeciderRunner) {}

  /** The project to place a new service or server in: the one named (it must exist) or the default. */
  async placeIn(projectId: string | undefined): Promise<string> {
    if (projectId === undefined || projectId === DEFAULT_PROJECT) return DEFAULT_PROJECT;
    const project = await this.runner.load(projectStream(projectId), projectDecider);
    if (!project.created) throw notFound('No such project');
    return projectId;
  }
}
