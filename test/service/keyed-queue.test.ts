/** KeyedQueue: work on one key runs one at a time in order, other keys run alongside, and a failure does not block the queue. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedQueue } from '../../src/modules/commitments/keyed-queue';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('KeyedQueue', () => {
  it('runs one key one at a time, in order, and other keys meanwhile', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    let inA = 0;
    const a = (n: number) =>
      q.run('a', async () => {
        inA++;
        assert.equal(inA, 1, 'two works of one key at once');
        log.push(`a${n}+`);
        await tick();
        log.push(`a${n}-`);
        inA--;
        return n;
      });
    const b = q.run('b', async () => {
      log.push('b+');
      await tick();
      log.push('b-');
    });
    assert.deepEqual(await Promise.all([a(1), a(2), a(3), b]), [1, 2, 3, undefined]);
    assert.deepEqual(log.filter((x) => x.startsWith('a')), ['a1+', 'a1-', 'a2+', 'a2-', 'a3+', 'a3-']);
    assert.ok(log.indexOf('b+') < log.indexOf('a1-'), 'b ran alongside a');
  });

  it('a failure reaches its caller and the next work still runs', async () => {
    const q = new KeyedQueue();
    const failed = q.run('k', async () => {
      throw new Error('boom');
    });
    const next = q.run('k', async () => 'ran');
    await assert.rejects(failed, /boom/);
    assert.equal(await next, 'ran');
  });
});
