import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { FileChangeSignal } from './file-change-signal.js';

/** Resolves at the first call of the listener, or rejects after `ms` (the tests' poll is off). */
function nextCall(signal: FileChangeSignal, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('no change heard'));
    }, ms);
    const stop = signal.listen(() => {
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

describe('FileChangeSignal', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-fcs-'));
    file = join(dir, 'data.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hears a commit another connection makes to the SQLite file (its WAL journal)', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT)');
    const signal = new FileChangeSignal(file);
    const heard = nextCall(signal);
    expect(signal.watching).toBe(true);
    db.prepare('INSERT INTO t VALUES (?)').run('x');
    await heard;
    db.close();
    signal.close();
  });

  it('ignores the other files of the directory', async () => {
    const signal = new FileChangeSignal(file);
    let calls = 0;
    const stop = signal.listen(() => (calls += 1));
    writeFileSync(join(dir, 'other.sqlite-wal'), 'unrelated');
    writeFileSync(join(dir, 'notes.txt'), 'unrelated');
    // A change to the watched file afterwards: its call is the only one.
    const heard = nextCall(signal);
    writeFileSync(file, 'changed');
    await heard;
    expect(calls).toBe(1);
    stop();
  });

  it('watches only while someone listens', () => {
    const signal = new FileChangeSignal(file);
    expect(signal.watching).toBe(false);
    const stopA = signal.listen(() => undefined);
    const stopB = signal.listen(() => undefined);
    stopA();
    expect(signal.watching).toBe(true);
    stopB();
    expect(signal.watching).toBe(false);
  });

  it('does not watch an in-memory database or a directory that does not exist', () => {
    for (const target of [':memory:', join(dir, 'missing', 'data.sqlite')]) {
      const signal = new FileChangeSignal(target);
      const stop = signal.listen(() => undefined);
      expect(signal.watching).toBe(false);
      stop();
    }
  });

  it('watches the journal alone once it exists: writes to the other files wake nothing', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT)');
    const signal = new FileChangeSignal(file);
    let calls = 0;
    const stop = signal.listen(() => (calls += 1));
    expect(signal.watchedPath).toBe(`${file}-wal`);
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'other.sqlite-wal'), `unrelated ${i}`);
    writeFileSync(file + '-shm-neighbour', 'unrelated');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(0);
    const heard = nextCall(signal);
    db.prepare('INSERT INTO t VALUES (?)').run('x');
    await heard;
    expect(calls).toBe(1);
    stop();
    db.close();
  });

  it('watches the directory once the journal is removed, and the new journal once written', async () => {
    let db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT)');
    const signal = new FileChangeSignal(file);
    const stop = signal.listen(() => undefined);
    expect(signal.watchedPath).toBe(`${file}-wal`);
    // The last connection closes: SQLite folds the journal in and deletes it.
    db.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(signal.watchedPath).toBe(dir);
    db = new Database(file);
    const heard = nextCall(signal);
    db.prepare('INSERT INTO t VALUES (?)').run('y');
    await heard;
    expect(signal.watchedPath).toBe(`${file}-wal`);
    stop();
    db.close();
  });

  it('watches the directory of a new database until its first commit writes the journal', async () => {
    const signal = new FileChangeSignal(file);
    const stop = signal.listen(() => undefined);
    expect(signal.watchedPath).toBe(dir);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const heard = nextCall(signal);
    db.exec('CREATE TABLE t (v TEXT)');
    await heard;
    expect(signal.watchedPath).toBe(`${file}-wal`);
    // And the next commit is heard through the journal.
    const again = nextCall(signal);
    db.prepare('INSERT INTO t VALUES (?)').run('z');
    await again;
    stop();
    db.close();
  });
});
