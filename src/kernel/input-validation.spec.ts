import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { IsDate, IsInt, IsString, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { DisplayName } from '../common/field-rules.js';
import { validateInput } from './input-validation.js';

class PageInput {
  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;

  @DisplayName()
  name!: string;
}

class WhenInput {
  @IsDate()
  @Type(() => Date)
  at!: Date;
}

class TextInput {
  @IsString()
  at!: string;
}

describe('input validation, repeated', () => {
  it('gives a fresh instance for each call of an input found valid before', async () => {
    const first = await validateInput(PageInput, { limit: 20, name: ' api ' });
    const again = await validateInput(PageInput, { limit: 20, name: ' api ' });
    expect(again).toEqual({ limit: 20, name: 'api' });
    expect(again).toBeInstanceOf(PageInput);
    expect(again).not.toBe(first);
  });

  it('still refuses each input not seen valid, however close to one that was', async () => {
    await validateInput(PageInput, { limit: 20, name: 'api' });
    for (const input of [
      { limit: 200, name: 'api' },
      { limit: 20, name: 'api', extra: true },
      { limit: '20', name: 'api' },
      { limit: 20, name: 'a\u202eb' },
    ]) {
      await expect(validateInput(PageInput, input)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(validateInput(PageInput, input)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('judges a class apart from another, and a Date apart from its text', async () => {
    await validateInput(WhenInput, { at: new Date(0) });
    await validateInput(TextInput, { at: new Date(0).toISOString() });
    await expect(validateInput(TextInput, { at: new Date(0) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
