// The one writer of quick-view's leader lists (src/core/search/leaders.ts):
// a background job on the applier thread that reads a merchant's index in
// steps (the postings of every very common term as each step reads them,
// scored against the doc columns and dfs of the build's start), then writes
// every list in one short transaction and drops the lists of terms no longer
// common. A doc changed after the build started is listed in changedDocs
// under a later version, so readers take it apart whatever the step saw of
// it; behind each build the entries it took in are pruned a slice at a time.
// Shops below the settings' minShop products have none: every query there
// reads every posting.
import type { RootDatabase } from "lmdb";
import { chunkOf, DOC_CHUNK, docBounds, popularityScale } from "../core/search/doc-columns.js";
import { LeaderScorer, LeaderSelection, type LeaderSettings, type StaticColumns } from "../core/search/leaders.js";
import { encodePostingBlock, POSTING_BLOCK_MAX, readPostingBlock } from "../core/search/postings.js";
import { DEFAULT_RANKING } from "../core/search/query-plan.js";
import type { MerchantId } from "../core/types.js";
import { AFTER_EVERY_STRING, searchKeysOf, termKey, type LeaderBuild, type SearchTables } from "./search-tables.js";

/** Lists are rebuilt at most this often after the last build while the index changes, and sooner once half the docs queries take apart changed. */
const REBUILD_EVERY_MS = 30_000;
/** Changed-doc entries removed per transaction: an import of a million products lists a million. */
const PRUNE_SLICE = 8_192;

interface Build {
  started: LeaderBuild;
  columns: StaticColumns;
  scorer: LeaderScorer;
  /** Common terms not read yet, and the lists of those read, by termKey. */
  terms: { term: string; df: number }[];
  lists: Map<string, Uint8Array>;
}

export class SearchLeaders {
  private readonly builds = new Map<MerchantId, Build>();
  private readonly scores = new Float64Array(POSTING_BLOCK_MAX);

  constructor(
    private readonly root: RootDatabase,
    private readonly tables: SearchTables,
    private readonly settings: LeaderSettings,
  ) {}

  /** Whether a build is under way or should start: a big shop with none yet, or whose index moved since the last one. */
  due(merchant: MerchantId, now: number): boolean {
    if (this.builds.has(merchant)) return true;
    const meta = this.tables.metaOf(merchant);
    if (meta.size < this.settings.minShop) return false;
    const last = this.tables.leaderBuilds.get(merchant);
    if (last === undefined) return true;
    const soonerAt = Math.ceil(this.settings.maxChanged / 2);
    const changed = this.changedSince(merchant, last.changes, soonerAt);
    if (changed === 0 && meta.ranks === last.ranks) return false;
    return changed >= soonerAt || now - last.builtAt >= REBUILD_EVERY_MS;
  }

  /** Reads until `deadline` (performance.now(); at least one term per call); once every term is read, writes the lists. True once written. */
  buildStep(merchant: MerchantId, now: number, deadline: number): boolean {
    let build = this.builds.get(merchant);
    if (build === undefined) this.builds.set(merchant, (build = this.start(merchant, now)));
    while (build.terms.length > 0) {
      const { term, df } = build.terms.pop()!;
      build.lists.set(termKey(term), this.leadersOf(merchant, build.scorer, term, df));
      if (performance.now() >= deadline) return false;
    }
    this.builds.delete(merchant);
    this.root.transactionSync(() => this.write(merchant, build));
    return true;
  }

  /** A whole build at once (tools, evaluations and tests). */
  buildSync(merchant: MerchantId, now = Date.now()): void {
    this.builds.delete(merchant);
    this.buildStep(merchant, now, Number.POSITIVE_INFINITY);
  }

  private start(merchant: MerchantId, now: number): Build {
    const meta = this.tables.metaOf(merchant);
    const previous = this.tables.leaderBuilds.get(merchant);
    const columns = this.staticColumns(merchant, meta.capacity, meta.size, meta.totalLength, meta.ranked);
    const terms: { term: string; df: number }[] = [];
    for (const { key, value } of this.tables.terms.getRange(searchKeysOf(merchant))) {
      const df = new DataView(value.buffer, value.byteOffset, 4).getUint32(0, true);
      if (df < this.settings.minDf) continue;
      const term = value.length > 4 ? Buffer.from(value.buffer, value.byteOffset + 4, value.length - 4).toString() : (key[1] as string);
      terms.push({ term, df });
    }
    return {
      started: { changes: meta.changes, ranks: meta.ranks, builtAt: now, version: (previous?.version ?? 0) + 1 },
      columns,
      scorer: new LeaderScorer(columns, DEFAULT_RANKING),
      terms,
      lists: new Map(),
    };
  }

  /** Every doc's bound columns, copied out of its chunk. */
  private staticColumns(merchant: MerchantId, capacity: number, size: number, totalLength: number, ranked: number): StaticColumns {
    const rankSteps = new Uint16Array(capacity);
    const priorSteps = new Uint16Array(capacity);
    const flags = new Uint8Array(capacity);
    for (let chunk = 0; chunk <= chunkOf(Math.max(0, capacity - 1)); chunk++) {
      const bytes = this.tables.chunkInPlace(merchant, "bounds", chunk);
      if (bytes === undefined) continue;
      const bounds = docBounds(bytes);
      const from = chunk * DOC_CHUNK;
      const count = Math.min(DOC_CHUNK, capacity - from);
      rankSteps.set(bounds.rankSteps.subarray(0, count), from);
      priorSteps.set(bounds.priorSteps.subarray(0, count), from);
      flags.set(bounds.flags.subarray(0, count), from);
    }
    return {
      size,
      averageLength: size === 0 ? 1 : totalLength / size,
      popularityScale: popularityScale(ranked),
      rankSteps,
      priorSteps,
      flags,
    };
  }

  private leadersOf(merchant: MerchantId, scorer: LeaderScorer, term: string, df: number): Uint8Array {
    const selection = new LeaderSelection(this.settings.perTerm);
    for (const bytes of this.tables.postingBlocks(merchant, term)) {
      const block = readPostingBlock(bytes);
      scorer.score(df, block, this.scores);
      for (let i = 0; i < block.count; i++) selection.offer(block.docs[i]!, block.lengths[i]!, block.marks[i]!, this.scores[i]!);
    }
    const leaders = selection.take();
    return encodePostingBlock(leaders.docs, leaders.lengths, leaders.marks, 0, leaders.count);
  }

  private write(merchant: MerchantId, build: Build): void {
    for (const key of this.tables.leaders.getKeys(searchKeysOf(merchant))) {
      if (!build.lists.has(key[1] as string)) this.tables.leaders.remove(key);
    }
    for (const [key, list] of build.lists) this.tables.leaders.put([merchant, key], list);
    this.tables.leaderBuilds.put(merchant, build.started);
  }

  /**
   * Removes up to PRUNE_SLICE of the merchant's changed-doc entries that no
   * reader needs, in its own transaction: those the last build took in, or
   * every one of a shop without lists (a build reads the index as it is); a
   * shop that shrank below minShop loses its lists first, so that they are
   * never used again with entries missing. Not while a build is under way.
   * True when more are left.
   */
  prune(merchant: MerchantId): boolean {
    if (this.builds.has(merchant)) return false;
    return this.root.transactionSync(() => {
      if (this.tables.metaOf(merchant).size < this.settings.minShop && this.tables.leaderBuilds.get(merchant) !== undefined) {
        for (const key of this.tables.leaders.getKeys(searchKeysOf(merchant))) this.tables.leaders.remove(key);
        this.tables.leaderBuilds.remove(merchant);
      }
      const through = this.prunedThrough(merchant);
      let removed = 0;
      for (const key of this.tables.changedDocs.getKeys({ start: [merchant, 0], end: [merchant, through + 1] })) {
        if (removed === PRUNE_SLICE) return true;
        this.tables.changedDocs.remove(key);
        removed++;
      }
      return false;
    });
  }

  /**
   * Whether prune has something to do (a look, no transaction): behind a
   * build, any entry; in a shop without lists, a slice's worth, so that a
   * small shop's writes cost the applier a transaction per slice of them, not
   * one a second.
   */
  prunable(merchant: MerchantId): boolean {
    if (this.builds.has(merchant)) return false;
    const built = this.tables.leaderBuilds.get(merchant) !== undefined;
    if (built && this.tables.metaOf(merchant).size < this.settings.minShop) return true;
    for (const _ of this.tables.changedDocs.getKeys({
      start: [merchant, 0],
      end: [merchant, this.prunedThrough(merchant) + 1],
      offset: built ? 0 : PRUNE_SLICE - 1,
      limit: 1,
    })) {
      return true;
    }
    return false;
  }

  /** The changes no reader needs the entries of: those the last build took in; all of them in a shop without lists. */
  private prunedThrough(merchant: MerchantId): number {
    return this.tables.leaderBuilds.get(merchant)?.changes ?? this.tables.metaOf(merchant).changes;
  }

  /** How many changed-doc entries there are after `changes`, counting up to `atMost`. */
  private changedSince(merchant: MerchantId, changes: number, atMost: number): number {
    let count = 0;
    for (const _ of this.tables.changedDocs.getKeys({
      start: [merchant, changes + 1],
      end: [merchant, AFTER_EVERY_STRING],
      limit: atMost,
    })) {
      count++;
    }
    return count;
  }
}
