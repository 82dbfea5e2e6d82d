import { Inject, Module } from '@nestjs/common';
import type { ICommandHandler, IQueryHandler } from '@nestjs/cqrs';
import { IsDate, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { Projection } from '../../projections/projection.js';
import { defineEvent } from '../../src/eventstore/define-event.js';
import { READ_STORE, type Doc, type ReadStore } from '../../src/readstore/read-store.port.js';
import { Procedure } from '../../src/kernel/procedure.js';
import { ProcedureCommand, ProcedureQuery } from '../../src/kernel/procedure-message.js';
import { EventWriter } from '../../src/storage/event-writer.js';
import { Omittable } from '../../src/common/omittable.js';

/**
 * A tiny bounded context that exists only in tests: it exercises the whole command lane
 * (procedure → handler → EventWriter → projection → read) before the real ones exist.
 */
const NoteAdded = defineEvent<{ noteId: string; text: string; remindAt: string | null }>(
  'NoteAdded',
  1,
);

interface NoteDoc extends Doc {
  text: string;
  remindAt: string | null;
  addedBy: string | null;
}

export const notesProjection: Projection = {
  name: 'notes',
  version: 1,
  collections: [{ name: 'notes' }],
  handlers: {
    NoteAdded: [
      {
        collection: 'notes',
        documentId: (e) => String(e.data.noteId),
        evolve: (_current, e) => ({
          id: String(e.data.noteId),
          text: String(e.data.text),
          remindAt: (e.data.remindAt as string | null) ?? null,
          addedBy: e.metadata.actor.principalId,
        }),
      },
    ],
  },
};

export class AddNoteInput {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  noteId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  text!: string;

  @Omittable()
  @IsDate()
  remindAt?: Date;
}

export class GetNoteInput {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  noteId!: string;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(10)
  repeat?: number;
}

class AddNote extends ProcedureCommand<AddNoteInput, { noteId: string; position: string }> {}

@Procedure.command(AddNote, {
  name: 'addNote',
  roles: ['owner', 'admin', 'operator', 'agent'],
  scopes: ['deploy:start'],
  input: AddNoteInput,
  description: 'Test-only: records a note.',
})
class AddNoteHandler implements ICommandHandler<AddNote> {
  constructor(private readonly writer: EventWriter) {}

  async execute({ input, ctx }: AddNote) {
    const event = NoteAdded({
      noteId: input.noteId,
      text: input.text,
      remindAt: input.remindAt ? input.remindAt.toISOString() : null,
    });
    const result = await this.writer.append(`note-${input.noteId}`, [event], 'no_stream', ctx);
    return { noteId: input.noteId, position: String(result.lastPosition) };
  }
}

class GetNote extends ProcedureQuery<GetNoteInput, { note: NoteDoc | null; readAt: Date }> {}

@Procedure.read(GetNote, {
  name: 'getNote',
  roles: ['owner', 'admin', 'operator', 'viewer', 'agent'],
  scopes: ['deploy:read'],
  input: GetNoteInput,
  description: 'Test-only: reads a note.',
})
class GetNoteHandler implements IQueryHandler<GetNote> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input }: GetNote) {
    const note = await this.reads.collection<NoteDoc>('notes').get(input.noteId);
    return { note, readAt: new Date('2026-01-02T03:04:05.000Z') };
  }
}

class Explode extends ProcedureQuery<undefined, never> {}

@Procedure.read(Explode, {
  name: 'explode',
  roles: ['owner'],
  scopes: [],
  description: 'Test-only: fails with an unexpected exception.',
})
class ExplodeHandler implements IQueryHandler<Explode> {
  execute(): never {
    throw new Error('secret internal detail at /srv/app.ts:42');
  }
}

@Module({ providers: [AddNoteHandler, GetNoteHandler, ExplodeHandler] })
export class NotesTestModule {}
