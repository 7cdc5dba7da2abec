// Brute-force vector search over the current model's vectors, held in one Float32Array and
// reloaded only when the store's vector generation changes. Vectors are unit length, so the dot
// product is the cosine similarity.

import type { SqlDatabase } from '../ports';

export interface VectorHit {
  table: 'chunk' | 'memory';
  id: number;
  score: number;
}

export class VectorCache {
  private key = '';
  private ids: Array<{ table: 'chunk' | 'memory'; id: number }> = [];
  private matrix = new Float32Array(0);
  private dims = 0;

  private load(db: SqlDatabase, model: string): void {
    const generation = db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'index.vector_generation'")?.value ?? '0';
    const key = `${model}@${generation}`;
    if (key === this.key) return;
    const rows = [
      ...db.all<{ id: number; vector: Uint8Array; dims: number }>('SELECT chunk_id AS id, vector, dims FROM chunk_vectors WHERE model = ?', [model]).map((r) => ({ ...r, table: 'chunk' as const })),
      ...db.all<{ id: number; vector: Uint8Array; dims: number }>('SELECT memory_id AS id, vector, dims FROM memory_vectors WHERE model = ?', [model]).map((r) => ({ ...r, table: 'memory' as const })),
    ];
    this.dims = rows[0]?.dims ?? 0;
    this.matrix = new Float32Array(rows.length * this.dims);
    this.ids = [];
    rows.forEach((row, i) => {
      const bytes = row.vector.slice();
      this.matrix.set(new Float32Array(bytes.buffer, bytes.byteOffset, this.dims), i * this.dims);
      this.ids.push({ table: row.table, id: row.id });
    });
    this.key = key;
  }

  size(db: SqlDatabase, model: string): number {
    this.load(db, model);
    return this.ids.length;
  }

  search(db: SqlDatabase, model: string, query: Float32Array, k: number): VectorHit[] {
    this.load(db, model);
    if (!this.ids.length || query.length !== this.dims) return [];
    const scores = new Float32Array(this.ids.length);
    for (let i = 0; i < this.ids.length; i++) {
      let dot = 0;
      const offset = i * this.dims;
      for (let d = 0; d < this.dims; d++) dot += this.matrix[offset + d] * query[d];
      scores[i] = dot;
    }
    const order = [...scores.keys()].sort((a, b) => scores[b] - scores[a]).slice(0, k);
    return order.map((i) => ({ ...this.ids[i], score: scores[i] }));
  }
}
