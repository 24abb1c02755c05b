/* The speed-of-light baseline: Repeated Forward/Backward A* and Adaptive A* in plain C (SPEC §4-7).
 *
 * The same algorithm as the kit's reference and compiled twin (Figure 4 with counter and search(s),
 * east-south-west-north successors, the walking rule of SPEC §6), recording full traces in growing
 * arrays, as the twin does. OPEN is either of the twin's two: an indexed binary heap of packed int64
 * keys, or the two-level bucket queue (use_buckets), so that each comparison with the twin is fair.
 * With record_cells 0 it keeps only the counts per search, as the twin's record_cells=False. bench/standard.py builds it
 * with `cc -O2 -shared -fPIC` into a temporary folder and calls it through ctypes; the traces it
 * returns are checked cell for cell against the twin's.
 *
 * API: ftr_run(...) -> a run; ftr_counts(run, out[5]) -> reached, searches, expansions, moves,
 * state bytes; ftr_copy(run, which, out) copies one trace array (out NULL: just its length);
 * ftr_free(run).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INFINITY_G 2147483647

typedef struct { int32_t *data; int64_t n, cap; } Buf;

static void grow(Buf *b) {
    b->cap = b->cap ? 2 * b->cap : 1024;
    b->data = realloc(b->data, b->cap * sizeof(int32_t));
}

static inline void push(Buf *b, int32_t v) {
    if (b->n == b->cap) grow(b);  /* rare: the common case is a store and an add, inlined */
    b->data[b->n++] = v;
}

enum { TRAJECTORY, STARTS, GOALS, EXPANDED, EXPANDED_COUNTS, PATHS, PATH_COUNTS, BUFFERS };

typedef struct {
    int reached;
    int64_t moves, expansions, state_bytes;
    Buf buf[BUFFERS];
} Run;

typedef struct { int64_t *keys; int32_t *items, *pos; int64_t size; } Heap;

/* Speed: each function copies the heap's fields into locals; through h, every int64 store into keys
 * could change h->size for all the compiler knows, so it would reload it at every level. */
static inline void sift_up(Heap *h, int64_t i, int64_t key, int32_t item) {
    int64_t *keys = h->keys;
    int32_t *items = h->items, *pos = h->pos;
    while (i > 0) {
        int64_t parent = (i - 1) >> 1;
        if (keys[parent] <= key) break;
        keys[i] = keys[parent]; items[i] = items[parent]; pos[items[i]] = (int32_t)i;
        i = parent;
    }
    keys[i] = key; items[i] = item; pos[item] = (int32_t)i;
}

static inline void sift_down(Heap *h, int64_t i, int64_t key, int32_t item) {
    int64_t *keys = h->keys, size = h->size;
    int32_t *items = h->items, *pos = h->pos;
    for (;;) {
        int64_t child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= key) break;
        keys[i] = keys[child]; items[i] = items[child]; pos[items[i]] = (int32_t)i;
        i = child;
    }
    keys[i] = key; items[i] = item; pos[item] = (int32_t)i;
}

static inline int32_t pop(Heap *h) {
    int32_t top = h->items[0];
    h->pos[top] = -1;
    h->size--;
    if (h->size > 0) sift_down(h, 0, h->keys[h->size], h->items[h->size]);
    return top;
}

static void push_or_update(Heap *h, int32_t item, int64_t key) {
    int32_t i = h->pos[item];
    if (i < 0) { h->size++; sift_up(h, h->size - 1, key, item); }
    else if (key < h->keys[i]) sift_up(h, i, key, item);
    else sift_down(h, i, key, item);
}

/* The two-level bucket queue of reference/solutions/compiled/buckets.py, field for field: one int32
 * array holding two entries per level (first bucket's leader, finger) and six per item (next and
 * previous in the bucket's circle, next and previous bucket's leader, level, tie). Pops in the order
 * (level, tie, insertion), the packed key's order. */
enum { NEXT, PREV, BNEXT, BPREV, LEVEL, TIE, FIELDS };
#define NOT_LEADER (-2)
typedef struct { int32_t *levels, *items; int64_t lowest, highest, size, level_count; } Buckets;
#define IT(item, field) q->items[(int64_t)(item) * FIELDS + (field)]

static void buckets_push(Buckets *q, int32_t item, int32_t level, int32_t tie) {
    IT(item, LEVEL) = level; IT(item, TIE) = tie;
    int32_t *lv = q->levels + 2 * (int64_t)level, first = lv[0], before, bucket;
    if (first < 0 || IT(first, TIE) >= tie) { before = -1; bucket = first; }
    else {
        bucket = lv[1];
        if (IT(bucket, TIE) < tie) {
            before = bucket; bucket = IT(bucket, BNEXT);
            while (bucket >= 0 && IT(bucket, TIE) < tie) { before = bucket; bucket = IT(bucket, BNEXT); }
        } else {
            before = IT(bucket, BPREV);
            while (IT(before, TIE) >= tie) { bucket = before; before = IT(before, BPREV); }
        }
    }
    if (bucket >= 0 && IT(bucket, TIE) == tie) {
        int32_t tail = IT(bucket, PREV);
        IT(tail, NEXT) = item; IT(item, PREV) = tail; IT(item, NEXT) = bucket; IT(bucket, PREV) = item;
        IT(item, BPREV) = NOT_LEADER; lv[1] = bucket;
    } else {
        IT(item, NEXT) = item; IT(item, PREV) = item; IT(item, BNEXT) = bucket; IT(item, BPREV) = before;
        if (bucket >= 0) IT(bucket, BPREV) = item;
        if (before >= 0) IT(before, BNEXT) = item; else lv[0] = item;
        lv[1] = item;
    }
    q->size++;
    if (level < q->lowest) q->lowest = level;
    if (level > q->highest) q->highest = level;
}

static void buckets_remove(Buckets *q, int32_t item) {
    q->size--;
    int32_t before = IT(item, BPREV), follower = IT(item, NEXT);
    if (before == NOT_LEADER) {
        int32_t previous = IT(item, PREV);
        IT(previous, NEXT) = follower; IT(follower, PREV) = previous;
        return;
    }
    int32_t after = IT(item, BNEXT), *lv = q->levels + 2 * (int64_t)IT(item, LEVEL), replacement, neighbour;
    if (follower != item) {
        int32_t tail = IT(item, PREV);
        IT(tail, NEXT) = follower; IT(follower, PREV) = tail; IT(follower, BPREV) = before;
        IT(follower, BNEXT) = after; IT(follower, LEVEL) = IT(item, LEVEL); IT(follower, TIE) = IT(item, TIE);
        replacement = neighbour = follower;
    } else {
        replacement = after; neighbour = before >= 0 ? before : after;
    }
    if (before >= 0) IT(before, BNEXT) = replacement; else lv[0] = replacement;
    if (after >= 0) IT(after, BPREV) = follower != item ? follower : before;
    if (lv[1] == item) lv[1] = neighbour;
}

static int64_t buckets_peek_level(Buckets *q) {
    while (q->levels[2 * q->lowest] < 0) q->lowest++;
    return q->lowest;
}

static void buckets_clear(Buckets *q) {
    for (int64_t level = q->lowest; level <= q->highest; level++) q->levels[2 * level] = -1;
    q->lowest = q->level_count; q->highest = -1; q->size = 0;
}

static const int32_t ROW_STEP[4] = {0, 1, 0, -1}, COL_STEP[4] = {1, 0, -1, 0};  /* east, south, west, north */

/* The neighbour of cell in direction k (east, south, west, north), or -1 outside the grid. */
static inline int32_t neighbour(int32_t cell, int k, int32_t width, int32_t cells) {
    int32_t col = cell % width;
    switch (k) {
    case 0: return col != width - 1 ? cell + 1 : -1;
    case 1: return cell + width < cells ? cell + width : -1;
    case 2: return col != 0 ? cell - 1 : -1;
    default: return cell >= width ? cell - width : -1;
    }
}

/* Sense the four neighbours; remember the blocked ones. Returns 1 if a new one lies on the path ahead. */
static int observe(const uint8_t *truth, uint8_t *known, const int32_t *path_index, int32_t cell, int32_t width,
                   int32_t cells, int32_t step) {
    int ahead = 0;
    for (int k = 0; k < 4; k++) {
        int32_t t = neighbour(cell, k, width, cells);
        if (t >= 0 && truth[t] && !known[t]) {
            known[t] = 1;
            if (path_index[t] > step) ahead = 1;
        }
    }
    return ahead;
}

/* The run, for one queue: always inlined into ftr_run with use_buckets a constant, so that each queue
 * gets its own copy of the loop with the other queue's code gone (one loop holding both was about
 * 10 % slower with the heap). */
static inline __attribute__((always_inline)) Run *run_with(const uint8_t *truth, int32_t height, int32_t width,
        int32_t start, int32_t target, int backward, int adaptive, int larger_g, const int use_buckets,
        int record_cells) {
    int64_t cells = (int64_t)height * width;
    /* The heap's key (f, tie, stamp) packed with shifts: f << (T + S) | tie << S | stamp (f < 2n, tie < n,
     * stamp <= 4n + 1); the order of the twin's (f * n + tie) * (4n + 2) + stamp, and f is one shift away
     * (a 64-bit division by the radix cost about a tenth of a run). */
    int tie_bits = 0, stamp_bits = 0;
    while ((1LL << tie_bits) <= cells) tie_bits++;
    while ((1LL << stamp_bits) <= 4 * cells + 2) stamp_bits++;
    int f_shift = tie_bits + stamp_bits;
    Run *run = calloc(1, sizeof(Run));
    int32_t *g = malloc(cells * 4), *search = calloc(cells, 4), *tree = malloc(cells * 4);
    int32_t *learned_h = adaptive ? malloc(cells * 4) : NULL, *path_index = malloc(cells * 4);
    uint8_t *known = calloc(cells, 1);
    Heap heap = {0};
    Buckets q = {0};
    if (use_buckets) {
        q.level_count = 2 * cells;
        q.levels = malloc(q.level_count * 2 * 4); q.items = malloc(cells * FIELDS * 4);
        for (int64_t i = 0; i < 2 * q.level_count; i++) q.levels[i] = -1;
        q.lowest = q.level_count; q.highest = -1;
    } else {
        heap = (Heap){malloc(cells * 8), malloc(cells * 4), malloc(cells * 4), 0};
        for (int64_t i = 0; i < cells; i++) heap.pos[i] = -1;
    }
    for (int64_t i = 0; i < cells; i++) {  /* lines 15-17: the one pass over all cells */
        g[i] = INFINITY_G; tree[i] = -1; path_index[i] = -1;
        if (adaptive) learned_h[i] = -1;
    }
    run->state_bytes = cells * (4 + 4 + 4 + 4 + 1 + (use_buckets ? 40 : 16) + (adaptive ? 4 : 0));
    Buf *B = run->buf;

    int32_t agent = start, counter = 0;
    observe(truth, known, path_index, agent, width, (int32_t)cells, 0);
    if (record_cells) push(&B[TRAJECTORY], agent);
    run->reached = 1;
    while (agent != target) {
        counter++;
        int32_t s_start = backward ? target : agent, s_goal = backward ? agent : target;
        int32_t goal_row = s_goal / width, goal_col = s_goal % width;
        g[s_start] = 0; search[s_start] = counter; g[s_goal] = INFINITY_G; search[s_goal] = counter;
        if (use_buckets) buckets_clear(&q);
        else {
            for (int64_t i = 0; i < heap.size; i++) heap.pos[heap.items[i]] = -1;
            heap.size = 0;
        }
        int64_t first_expanded = B[EXPANDED].n, stamp = 0;
        int64_t h_start = abs(s_start / width - goal_row) + abs(s_start % width - goal_col);
        if (adaptive && learned_h[s_start] >= 0) h_start = learned_h[s_start];
        int64_t tie_start = larger_g ? cells - 1 : 0;
        if (use_buckets) buckets_push(&q, s_start, (int32_t)h_start, (int32_t)tie_start);
        else push_or_update(&heap, s_start, (h_start << f_shift) | (tie_start << stamp_bits));
        for (;;) {
            int32_t s;
            if (use_buckets) {
                if (q.size == 0 || g[s_goal] <= buckets_peek_level(&q)) break;
                s = q.levels[2 * q.lowest];
                buckets_remove(&q, s);
            } else {
                if (heap.size == 0 || g[s_goal] <= heap.keys[0] >> f_shift) break;
                s = pop(&heap);
            }
            push(&B[EXPANDED], s);
            int64_t g_next = (int64_t)g[s] + 1;
            int32_t row = s / width, col = s % width;  /* one division per expansion, none per neighbour */
            for (int k = 0; k < 4; k++) {  /* east, south, west, north */
                int32_t t_row = row + ROW_STEP[k], t_col = col + COL_STEP[k];
                if (t_row < 0 || t_row >= height || t_col < 0 || t_col >= width) continue;
                int32_t t = t_row * width + t_col;
                if (known[t]) continue;
                if (search[t] != counter) { g[t] = INFINITY_G; search[t] = counter; }
                if (g[t] > g_next) {
                    int in_open = g[t] != INFINITY_G;
                    g[t] = (int32_t)g_next; tree[t] = s;
                    int64_t h_t = (adaptive && learned_h[t] >= 0) ? learned_h[t]
                                  : abs(t_row - goal_row) + abs(t_col - goal_col);
                    int64_t tie = larger_g ? cells - 1 - g_next : g_next;
                    if (use_buckets) {  /* in OPEN when g was finite, as in the twin */
                        if (in_open) buckets_remove(&q, t);
                        buckets_push(&q, t, (int32_t)(g_next + h_t), (int32_t)tie);
                    } else {
                        stamp++;
                        push_or_update(&heap, t, ((g_next + h_t) << f_shift) | (tie << stamp_bits) | stamp);
                    }
                }
            }
        }
        push(&B[STARTS], s_start); push(&B[GOALS], s_goal);
        push(&B[EXPANDED_COUNTS], (int32_t)(B[EXPANDED].n - first_expanded));
        run->expansions += B[EXPANDED].n - first_expanded;
        int found = g[s_goal] < INFINITY_G;
        int64_t first_path = B[PATHS].n;
        if (found) {
            for (int32_t cell = s_goal;; cell = tree[cell]) { push(&B[PATHS], cell); if (cell == s_start) break; }
            if (!backward)
                for (int64_t i = first_path, j = B[PATHS].n - 1; i < j; i++, j--) {
                    int32_t swap = B[PATHS].data[i]; B[PATHS].data[i] = B[PATHS].data[j]; B[PATHS].data[j] = swap;
                }
        }
        push(&B[PATH_COUNTS], (int32_t)(B[PATHS].n - first_path));
        if (!found) { run->reached = 0; break; }
        if (adaptive)
            for (int64_t i = first_expanded; i < B[EXPANDED].n; i++) {
                int32_t s = B[EXPANDED].data[i];
                learned_h[s] = g[s_goal] - g[s];
            }
        int32_t *path = B[PATHS].data + first_path;
        int64_t length = B[PATHS].n - first_path;
        for (int64_t i = 0; i < length; i++) path_index[path[i]] = (int32_t)i;
        for (int64_t step = 1; step < length; step++) {
            agent = path[step];
            run->moves++;
            if (record_cells) push(&B[TRAJECTORY], agent);
            if (observe(truth, known, path_index, agent, width, (int32_t)cells, (int32_t)step)) break;
        }
        for (int64_t i = 0; i < length; i++) path_index[path[i]] = -1;
        if (!record_cells) B[EXPANDED].n = B[PATHS].n = 0;  /* counts only: forget this search's cells */
    }
    if (!record_cells) B[EXPANDED].n = B[PATHS].n = 0;
    free(g); free(search); free(tree); free(learned_h); free(path_index); free(known);
    free(heap.keys); free(heap.items); free(heap.pos); free(q.levels); free(q.items);
    return run;
}

Run *ftr_run(const uint8_t *truth, int32_t height, int32_t width, int32_t start, int32_t target, int backward,
             int adaptive, int larger_g, int use_buckets, int record_cells) {
    if (use_buckets) return run_with(truth, height, width, start, target, backward, adaptive, larger_g, 1, record_cells);
    return run_with(truth, height, width, start, target, backward, adaptive, larger_g, 0, record_cells);
}

void ftr_counts(const Run *run, int64_t *out) {
    out[0] = run->reached; out[1] = run->buf[STARTS].n; out[2] = run->expansions; out[3] = run->moves;
    out[4] = run->state_bytes;
}

int64_t ftr_copy(const Run *run, int which, int32_t *out) {
    const Buf *b = &run->buf[which];
    if (out) memcpy(out, b->data, b->n * sizeof(int32_t));
    return b->n;
}

void ftr_free(Run *run) {
    for (int i = 0; i < BUFFERS; i++) free(run->buf[i].data);
    free(run);
}
