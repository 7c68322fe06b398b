// Each pool worker's memory as the HTTP thread sees it, for /metrics: the
// process's RSS lumps every thread together, and a worker's heap is the part
// that grows with the tasks it has run. A worker posts its V8 heap and its
// external memory on a BroadcastChannel after a task, at most every
// REPORT_EVERY_MS (a worker blocks between tasks, so it cannot post on a
// timer); a worker that has ended no longer counts.
import { getHeapStatistics } from "node:v8";
import { BroadcastChannel, threadId } from "node:worker_threads";

/** A worker posts its figures after a task at most this often. */
export const REPORT_EVERY_MS = 1_000;

export interface WorkerHeap {
  /** V8 heap in use and committed, in bytes. */
  usedBytes: number;
  totalBytes: number;
  /** Memory V8 counts outside its heap (array buffers: answers being built, model vectors). */
  externalBytes: number;
}

interface Report extends WorkerHeap {
  threadId: number;
}

/** The HTTP thread's side: the latest figures of every live worker of one pool. */
export class WorkerHeaps {
  private readonly channel: BroadcastChannel;
  private readonly byThread = new Map<number, WorkerHeap>();

  /** `channelName`: unique per pool, so two services in one process (tests) keep their workers apart. */
  constructor(channelName: string) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.onmessage = (event) => {
      const { threadId: thread, ...heap } = (event as MessageEvent).data as Report;
      this.byThread.set(thread, heap);
    };
    // Listening must not keep a stopping process alive.
    this.channel.unref();
  }

  /**
   * The figures of the workers in `live` (thread ids) added up; any other
   * worker's are dropped: it has ended, and a replacement reports afresh.
   * Zero before any worker has reported.
   */
  total(live: readonly number[]): WorkerHeap {
    const sum = { usedBytes: 0, totalBytes: 0, externalBytes: 0 };
    for (const [thread, heap] of this.byThread) {
      if (!live.includes(thread)) {
        this.byThread.delete(thread);
        continue;
      }
      sum.usedBytes += heap.usedBytes;
      sum.totalBytes += heap.totalBytes;
      sum.externalBytes += heap.externalBytes;
    }
    return sum;
  }

  close(): void {
    this.channel.close();
  }
}

/** A worker's side: call after each task; posts this worker's figures when REPORT_EVERY_MS have passed since it last did. */
export function heapReporter(channelName: string, now: () => number = () => performance.now()): () => void {
  const channel = new BroadcastChannel(channelName);
  channel.unref();
  let lastAt = Number.NEGATIVE_INFINITY;
  return () => {
    if (now() - lastAt < REPORT_EVERY_MS) return;
    lastAt = now();
    const heap = getHeapStatistics();
    const report: Report = {
      threadId,
      usedBytes: heap.used_heap_size,
      totalBytes: heap.total_heap_size,
      externalBytes: heap.external_memory,
    };
    channel.postMessage(report);
  };
}
