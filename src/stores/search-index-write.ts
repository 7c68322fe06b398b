// One catalogue write's changes to a merchant's stored search index, applied in
// the write's own transaction. Products are staged one by one (their doc
// records, doc numbers and codes are written at once, so later products of the
// same write read them); then commit() applies what they change together:
// each touched posting block, term record, completion list and chunk of doc
// columns is read and written once per write however many products touch it.
import { COMPLETION_LIST_LENGTH, listedPrefixes, topCompletions, updatedCompletions, type Completion } from "../core/search/completions.js";
import { AVAILABLE, chunkOf, docBounds, docGrids, docProducts, LIVE, priorSteps, rankSteps, slotOf } from "../core/search/doc-columns.js";
import { blocksFor, docPosition, encodePostingBlock, readPostingBlock } from "../core/search/postings.js";
import { priorGrid } from "../core/search/prior.js";
import { documentLength, termMarks, titleCount, type SearchDocument } from "../core/search/search-document.js";
import { termTypoKeys } from "../core/search/typo-keys.js";
import type { MerchantId } from "../core/types.js";
import {
  AFTER_EVERY_STRING,
  CHUNK_BYTES,
  termKey,
  type ChunkKind,
  type DocRecord,
  type SearchMeta,
  type SearchTables,
} from "./search-tables.js";

/** A term's posting changes: docs whose entry goes, and docs whose entry is (re)written with their length and mark. */
interface PostingEdit {
  removed: Set<number>;
  added: Map<number, { length: number; mark: number }>;
}

/** Below this many edits a term's blocks are found one lookup per edit; from it, by reading its block keys once. */
const EDITS_TO_LIST_BLOCKS = 16;

export class SearchIndexWrite {
  private readonly meta: SearchMeta;
  /** Docs (re)written by this write, and their documents: every column of theirs is rewritten. */
  private readonly written = new Map<number, SearchDocument>();
  private readonly freed = new Set<number>();
  /** Docs whose product kept its terms: only availability may have changed. */
  private readonly availability = new Map<number, boolean>();
  private readonly postingEdits = new Map<string, PostingEdit>();
  /** Net change of each term's df. */
  private readonly dfChanges = new Map<string, number>();
  /** No doc is free: known once a lookup found none, until this write frees one (an import adds many products). */
  private noFreeDoc = false;

  constructor(
    private readonly tables: SearchTables,
    private readonly merchant: MerchantId,
  ) {
    this.meta = { ...tables.metaOf(merchant) };
  }

  /** The product as searchable with this document. */
  upsert(document: SearchDocument): void {
    const { productId } = document;
    const existing = this.tables.productDocs.get([this.merchant, productId]);
    if (existing !== undefined) {
      const old = this.tables.docs.get([this.merchant, existing])!;
      if (sameTerms(old, document)) {
        this.availability.set(existing, document.available);
        return;
      }
      this.unindex(existing, old);
      this.index(existing, document);
      return;
    }
    const doc = this.allocate();
    this.tables.productDocs.put([this.merchant, productId], doc);
    this.meta.size++;
    this.index(doc, document);
  }

  /** The product as not searchable (deleted, or not published). */
  remove(productId: number): void {
    const doc = this.tables.productDocs.get([this.merchant, productId]);
    if (doc === undefined) return;
    this.unindex(doc, this.tables.docs.get([this.merchant, doc])!);
    this.tables.productDocs.remove([this.merchant, productId]);
    this.tables.docs.remove([this.merchant, doc]);
    this.tables.freeDocs.put([this.merchant, doc], true);
    this.noFreeDoc = false;
    this.meta.size--;
    this.written.delete(doc);
    this.availability.delete(doc);
    this.freed.add(doc);
  }

  /** Applies what the staged products change, in the caller's transaction. */
  commit(): void {
    for (const [term, edit] of this.postingEdits) this.editPostings(term, edit);
    const changes = this.updateDfs();
    this.updateCompletions(changes);
    if (this.updateTypoKeys(changes)) this.meta.vocabulary++;
    const availabilityFlipped = this.updateColumns(changes);
    // What readers cache moves with these versions.
    if (changes.size > 0) this.meta.frequencies++;
    if (this.written.size > 0 || this.freed.size > 0) this.meta.documents++;
    // Leader lists hold what their build read: docs changed since are read whole by queries until the next build.
    const changedDocs = [...this.written.keys(), ...this.freed, ...availabilityFlipped];
    if (changedDocs.length > 0) {
      this.meta.changes++;
      for (const doc of changedDocs) this.tables.changedDocs.put([this.merchant, this.meta.changes, doc], true);
    }
    this.tables.meta.put(this.merchant, this.meta);
  }

  /** The lowest free doc, or a new one. */
  private allocate(): number {
    if (!this.noFreeDoc) {
      for (const key of this.tables.freeDocs.getKeys({ start: [this.merchant, 0], end: [this.merchant, AFTER_EVERY_STRING], limit: 1 })) {
        this.tables.freeDocs.remove(key);
        const doc = key[1] as number;
        this.freed.delete(doc);
        return doc;
      }
      this.noFreeDoc = true;
    }
    return this.meta.capacity++;
  }

  private index(doc: number, document: SearchDocument): void {
    const length = documentLength(document);
    for (const [term, mark] of termMarks(document)) {
      this.editOf(term).added.set(doc, { length, mark });
      this.changeDf(term, 1);
    }
    for (const code of document.codes) this.tables.codes.put([this.merchant, code, document.productId], true);
    const record: DocRecord = {
      productId: document.productId,
      titleTerms: document.titleTerms,
      extraTerms: document.extraTerms,
      head: document.head,
      codes: document.codes,
    };
    this.tables.docs.put([this.merchant, doc], record);
    this.meta.totalLength += length;
    this.written.set(doc, document);
    this.availability.delete(doc);
  }

  private unindex(doc: number, old: DocRecord): void {
    for (const term of termMarks(old).keys()) {
      const edit = this.editOf(term);
      edit.added.delete(doc);
      edit.removed.add(doc);
      this.changeDf(term, -1);
    }
    for (const code of old.codes) this.tables.codes.remove([this.merchant, code, old.productId]);
    this.meta.totalLength -= documentLength(old);
  }

  private editOf(term: string): PostingEdit {
    let edit = this.postingEdits.get(term);
    if (!edit) this.postingEdits.set(term, (edit = { removed: new Set(), added: new Map() }));
    return edit;
  }

  private changeDf(term: string, by: number): void {
    this.dfChanges.set(term, (this.dfChanges.get(term) ?? 0) + by);
  }

  // ── postings ──

  /** Applies a term's edits to its blocks: each block read and written once; an overfull one split, an empty one dropped. */
  private editPostings(term: string, edit: PostingEdit): void {
    const key = termKey(term);
    const docs = new Set([...edit.removed, ...edit.added.keys()]);
    const route = this.blockRouter(key, docs.size);
    const blocks = new Map<number, { docs: number[]; lengths: number[]; marks: number[] }>();
    const blockOf = (doc: number) => {
      const low = route(doc);
      let block = blocks.get(low);
      if (!block) {
        const bytes = this.tables.postings.getBinary([this.merchant, key, low]);
        const stored = bytes === undefined ? undefined : readPostingBlock(bytes);
        block = { docs: [...(stored?.docs ?? [])], lengths: [...(stored?.lengths ?? [])], marks: [...(stored?.marks ?? [])] };
        blocks.set(low, block);
      }
      return block;
    };
    for (const doc of edit.removed) {
      const block = blockOf(doc);
      const at = docPosition(block.docs, block.docs.length, doc);
      if (block.docs[at] !== doc) continue;
      block.docs.splice(at, 1);
      block.lengths.splice(at, 1);
      block.marks.splice(at, 1);
    }
    for (const [doc, { length, mark }] of edit.added) {
      const block = blockOf(doc);
      const at = docPosition(block.docs, block.docs.length, doc);
      const replace = block.docs[at] === doc ? 1 : 0;
      block.docs.splice(at, replace, doc);
      block.lengths.splice(at, replace, length);
      block.marks.splice(at, replace, mark);
    }
    // Highest first: when the first block empties, the next one, already final, takes its key.
    for (const low of [...blocks.keys()].sort((a, b) => b - a)) this.writeBlock(key, low, blocks.get(low)!);
  }

  /** How to find the block a doc belongs in: the one with the greatest low doc at or below it (the first block's is 0). */
  private blockRouter(key: string, edits: number): (doc: number) => number {
    if (edits >= EDITS_TO_LIST_BLOCKS) {
      const lows = [...this.tables.postings.getKeys({ start: [this.merchant, key, 0], end: [this.merchant, key, AFTER_EVERY_STRING] })].map(
        (stored) => stored[2] as number,
      );
      return (doc) => (lows.length === 0 ? 0 : lows[Math.max(0, docPosition(lows, lows.length, doc + 1) - 1)]!);
    }
    return (doc) => {
      for (const stored of this.tables.postings.getKeys({
        start: [this.merchant, key, doc],
        end: [this.merchant, key, -1],
        reverse: true,
        limit: 1,
      })) {
        return stored[2] as number;
      }
      return 0;
    };
  }

  private writeBlock(key: string, low: number, block: { docs: number[]; lengths: number[]; marks: number[] }): void {
    const count = block.docs.length;
    if (count === 0) {
      this.tables.postings.remove([this.merchant, key, low]);
      if (low === 0) this.moveNextBlockToZero(key);
      return;
    }
    const pieces = blocksFor(count);
    for (let piece = 0; piece < pieces; piece++) {
      const from = Math.floor((piece * count) / pieces);
      const to = Math.floor(((piece + 1) * count) / pieces);
      const pieceLow = piece === 0 ? low : block.docs[from]!;
      this.tables.postings.put([this.merchant, key, pieceLow], encodePostingBlock(block.docs, block.lengths, block.marks, from, to));
    }
  }

  /** The first block keeps key 0, so that every doc routes to a block: the next one takes its place. */
  private moveNextBlockToZero(key: string): void {
    for (const { key: stored, value } of this.tables.postings.getRange({
      start: [this.merchant, key, 1],
      end: [this.merchant, key, AFTER_EVERY_STRING],
      limit: 1,
    })) {
      this.tables.postings.remove(stored);
      this.tables.postings.put([this.merchant, key, 0], value);
    }
  }

  // ── terms ──

  /** Writes each changed df; returns the terms whose df changed, with their old and new df. */
  private updateDfs(): Map<string, { before: number; after: number }> {
    const changes = new Map<string, { before: number; after: number }>();
    for (const [term, by] of this.dfChanges) {
      if (by === 0) continue;
      const before = this.tables.df(this.merchant, term);
      const after = before + by;
      this.tables.setDf(this.merchant, term, after);
      changes.set(term, { before, after });
    }
    return changes;
  }

  private updateCompletions(changes: Map<string, { before: number; after: number }>): void {
    const stored = new Map<string, readonly Completion[]>();
    const lists = new Map<string, readonly Completion[]>();
    for (const [term, { after }] of changes) {
      for (const prefix of listedPrefixes(term)) {
        let list = lists.get(prefix);
        if (list === undefined) {
          list = this.tables.completions.get([this.merchant, prefix]) ?? [];
          stored.set(prefix, list);
        }
        lists.set(prefix, updatedCompletions(list, term, after) ?? this.rescan(prefix));
      }
    }
    for (const [prefix, list] of lists) {
      if (list === stored.get(prefix)) continue;
      if (list.length === 0) this.tables.completions.remove([this.merchant, prefix]);
      else this.tables.completions.put([this.merchant, prefix], [...list]);
    }
  }

  /** A prefix's list read again from its terms (dfs are final by now). */
  private rescan(prefix: string): Completion[] {
    return topCompletions(this.tables.termsStartingWith(this.merchant, prefix), COMPLETION_LIST_LENGTH);
  }

  /** Files terms that came into use and takes out those that went out of it; whether any did. */
  private updateTypoKeys(changes: Map<string, { before: number; after: number }>): boolean {
    let vocabularyChanged = false;
    for (const [term, { before, after }] of changes) {
      if (before === 0) for (const key of termTypoKeys(term)) this.tables.typoKeys.put([this.merchant, key, term], true);
      else if (after === 0) for (const key of termTypoKeys(term)) this.tables.typoKeys.remove([this.merchant, key, term]);
      else continue;
      vocabularyChanged = true;
    }
    return vocabularyChanged;
  }

  // ── doc columns ──

  /**
   * Rewrites the columns of written and freed docs, the availability of the
   * others touched, and the grid sums (and prior steps) of docs whose title
   * holds a term whose priorGrid moved (a df crossing a power of two).
   * Returns the docs that kept their terms and became bought again or no longer.
   */
  private updateColumns(changes: Map<string, { before: number; after: number }>): number[] {
    const gridChanges = new Map<number, number>();
    for (const [term, { before, after }] of changes) {
      if (before === 0 || after === 0) continue; // a new term's docs are all written now; a gone one has none
      const step = priorGrid(after) - priorGrid(before);
      if (step === 0) continue;
      for (const bytes of this.tables.postingBlocks(this.merchant, term)) {
        const { count, docs, marks } = readPostingBlock(bytes);
        for (let i = 0; i < count; i++) {
          const inTitle = titleCount(marks[i]!);
          if (inTitle === 0 || this.written.has(docs[i]!)) continue;
          gridChanges.set(docs[i]!, (gridChanges.get(docs[i]!) ?? 0) + inTitle * step);
        }
      }
    }
    const dfs = new Map([...changes].map(([term, { after }]) => [term, after]));
    const dfOf = (term: string) => dfs.get(term) ?? this.tables.df(this.merchant, term);

    const bounds = new ChunkEdits(this.tables, this.merchant, "bounds");
    const grids = new ChunkEdits(this.tables, this.merchant, "grids");
    const products = new ChunkEdits(this.tables, this.merchant, "products");
    for (const [doc, document] of this.written) {
      const slot = slotOf(doc);
      const grid = document.titleTerms.reduce((sum, term) => sum + priorGrid(dfOf(term)), 0);
      const sums = docGrids(grids.edit(doc));
      sums.grids[slot] = grid;
      sums.titleCounts[slot] = document.titleTerms.length;
      const docBound = docBounds(bounds.edit(doc));
      docBound.rankSteps[slot] = rankSteps(this.tables.ranks.get([this.merchant, document.productId]));
      docBound.priorSteps[slot] = priorSteps(grid, document.titleTerms.length);
      docBound.flags[slot] = LIVE | (document.available ? AVAILABLE : 0);
      docProducts(products.edit(doc))[slot] = document.productId;
    }
    for (const doc of this.freed) {
      const slot = slotOf(doc);
      const sums = docGrids(grids.edit(doc));
      sums.grids[slot] = 0;
      sums.titleCounts[slot] = 0;
      const docBound = docBounds(bounds.edit(doc));
      docBound.rankSteps[slot] = 0;
      docBound.priorSteps[slot] = 0;
      docBound.flags[slot] = 0;
      docProducts(products.edit(doc))[slot] = 0;
    }
    const flipped: number[] = [];
    for (const [doc, available] of this.availability) {
      const { flags } = docBounds(bounds.edit(doc));
      const after = LIVE | (available ? AVAILABLE : 0);
      if (flags[slotOf(doc)] !== after) flipped.push(doc);
      flags[slotOf(doc)] = after;
    }
    for (const [doc, change] of gridChanges) {
      const slot = slotOf(doc);
      const sums = docGrids(grids.edit(doc));
      sums.grids[slot] = sums.grids[slot]! + change;
      docBounds(bounds.edit(doc)).priorSteps[slot] = priorSteps(sums.grids[slot]!, sums.titleCounts[slot]!);
    }
    if (bounds.write()) this.meta.columns++;
    grids.write();
    products.write();
    return flipped;
  }
}

/** Chunks of one kind read once, edited in place and written back when their bytes changed. */
export class ChunkEdits {
  private readonly edited = new Map<number, { before: Uint8Array | undefined; bytes: Uint8Array }>();

  constructor(
    private readonly tables: SearchTables,
    private readonly merchant: MerchantId,
    private readonly kind: ChunkKind,
  ) {}

  /** The bytes of the doc's chunk (a copy; all zero for a chunk never written), to change in place. */
  edit(doc: number): Uint8Array {
    const chunk = chunkOf(doc);
    let entry = this.edited.get(chunk);
    if (!entry) {
      const before = this.tables.chunks.getBinary([this.merchant, this.kind, chunk]);
      const bytes = new Uint8Array(new ArrayBuffer(CHUNK_BYTES[this.kind]));
      if (before) bytes.set(before);
      this.edited.set(chunk, (entry = { before, bytes }));
    }
    return entry.bytes;
  }

  /** Writes the chunks whose bytes changed; whether any did. */
  write(): boolean {
    let changed = false;
    for (const [chunk, { before, bytes }] of this.edited) {
      if (before !== undefined && Buffer.compare(before, bytes) === 0) continue;
      this.tables.chunks.put([this.merchant, this.kind, chunk], bytes);
      changed = true;
    }
    return changed;
  }
}

/** Whether a product's new document indexes it exactly as its record does (then only its availability may differ). */
function sameTerms(record: DocRecord, document: SearchDocument): boolean {
  return (
    record.head === document.head &&
    sameList(record.titleTerms, document.titleTerms) &&
    sameList(record.extraTerms, document.extraTerms) &&
    sameList(record.codes, document.codes)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
