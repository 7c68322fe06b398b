// `npm start` starts Node with --initial-old-space-size=256, for the HTTP
// thread. Its heap is so small that V8's default old-generation limit sits
// just above what is live, and V8 then starts a full marking every few
// scavenges: about 25 a second under the demo shop's cache misses, each
// costing the thread milliseconds (misses' p99 at 10 connections: 7 ms
// without the flag, 4 ms with it, for about 60 MB more resident memory).
//
// V8 flags are the process's, so every thread started later would take that
// starting limit too, and a worker that makes much garbage would hold up to
// it before its first full collection (145 MB instead of 40 MB, measured). A
// heap reads the flag when it is made: cleared here, before any thread
// starts, it stays the main thread's alone.
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--initial-old-space-size=0");
