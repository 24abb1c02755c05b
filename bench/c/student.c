/* An independent C baseline: Repeated Forward/Backward A* and Adaptive A* as a systems student writes
 * it straight from the handout (SPEC §4-7), written apart from bench/c/ftr.c and the compiled twin.
 *
 * The straightforward fast C: an indexed binary heap of 64-bit packed keys (an improved state's
 * entry moves up), row and column loops with direction tables, per-search
 * resets by the search(s) stamps of Figure 4, shifts instead of multiplications in the key, counts
 * only (no traces). The key is (f, tie, stamp) packed as f << (T + S) | tie << S | stamp with tie =
 * n - 1 - g (ties to the larger g) or g, stamp the search's insertion number: the kit's order, so the
 * counts are the kit's, which bench/independent.py checks on every run. A 64-bit key holds grids of
 * up to about a million cells (a 1001 x 1001 maze); built with -DSTUDENT_WIDE_KEY the key is a
 * 128-bit integer (GCC's and Clang's unsigned __int128), 8 bytes more per heap entry, for larger
 * grids (a 2001 x 2001 maze needs 69 bits). The benchmarks build the 64-bit one unless a grid needs more.
 *
 * Beside it, the floor: bfs_expansions(), a plain FIFO breadth-first search over the true grid from
 * the start, the least work per expanded cell any of these searches can do.
 *
 * Library (bench/independent.py builds it with cc -O2 and calls it through ctypes):
 *   student_run(truth, height, width, start, target, backward, adaptive, larger_g, out[5])
 *       -> 0, or -1 when the packed key does not fit in its 63 (or 127) bits;
 *       out = reached, searches, expansions, moves, peak bytes of search state.
 *   bfs_expansions(truth, height, width, start) -> the cells the BFS expanded.
 * Program (cc -O2 -DSTUDENT_MAIN -o student student.c, with -DSTUDENT_WIDE_KEY for large grids):
 *   student FOLDER/mazes.scen forward|backward|adaptive larger_g|smaller_g
 *       prints one JSON line per scenario line, as `ftr run --jsonl` does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INF 0x7fffffff
#ifdef STUDENT_WIDE_KEY
typedef unsigned __int128 heap_key_t;
#define KEY_BITS 127
#else
typedef uint64_t heap_key_t;
#define KEY_BITS 63
#endif
static const int32_t DR[4] = {0, 1, 0, -1}, DC[4] = {1, 0, -1, 0};  /* east, south, west, north */

/* OPEN: a binary heap of packed keys, with each cell's position in it (-1: not in OPEN) so that an
 * improved g moves its entry up instead of adding a second one. */
static heap_key_t *heap_key;
static int32_t *heap_cell, *heap_at;
static int64_t heap_size;

static void heap_up(int64_t i, heap_key_t key, int32_t cell) {
    while (i > 0 && heap_key[(i - 1) / 2] > key) {
        int64_t parent = (i - 1) / 2;
        heap_key[i] = heap_key[parent]; heap_cell[i] = heap_cell[parent]; heap_at[heap_cell[i]] = (int32_t)i;
        i = parent;
    }
    heap_key[i] = key; heap_cell[i] = cell; heap_at[cell] = (int32_t)i;
}

static int32_t heap_pop(void) {
    int32_t top = heap_cell[0];
    heap_at[top] = -1;
    heap_key_t key = heap_key[--heap_size];
    int32_t cell = heap_cell[heap_size];
    if (heap_size == 0) return top;
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= heap_size) break;
        if (c + 1 < heap_size && heap_key[c + 1] < heap_key[c]) c++;
        if (heap_key[c] >= key) break;
        heap_key[i] = heap_key[c]; heap_cell[i] = heap_cell[c]; heap_at[heap_cell[i]] = (int32_t)i;
        i = c;
    }
    heap_key[i] = key; heap_cell[i] = cell; heap_at[cell] = (int32_t)i;
    return top;
}

/* Insert cell, or lower its key (a new key is always smaller: a better g, same h, a later stamp). */
static void heap_push(heap_key_t key, int32_t cell) {
    heap_up(heap_at[cell] >= 0 ? heap_at[cell] : heap_size++, key, cell);
}

static int bits_for(int64_t x) { int b = 0; while ((1LL << b) <= x) b++; return b; }

int student_run(const uint8_t *truth, int32_t height, int32_t width, int32_t start, int32_t target,
                int backward, int adaptive, int larger_g, int64_t *out) {
    int32_t n = height * width;
    int T = bits_for(n), S = bits_for(4LL * n + 2), F = bits_for(2LL * n);
    if (F + T + S > KEY_BITS) return -1;
    size_t cells = (size_t)n;
    int32_t *g = malloc(cells * 4), *search = calloc(cells, 4), *tree = malloc(cells * 4), *path_at = malloc(cells * 4);
    int32_t *h_learned = adaptive ? malloc(cells * 4) : NULL, *closed = adaptive ? malloc(cells * 4) : NULL;
    int32_t *path = malloc(cells * 4);
    uint8_t *known = calloc(cells, 1);
    for (size_t i = 0; i < cells; i++) { path_at[i] = -1; if (adaptive) h_learned[i] = -1; }
    heap_key = malloc(cells * sizeof(heap_key_t)); heap_cell = malloc(cells * 4); heap_at = malloc(cells * 4);
    for (size_t i = 0; i < cells; i++) heap_at[i] = -1;
    heap_size = 0;
    int64_t searches = 0, expansions = 0, moves = 0;
    int reached = 1, counter = 0;
    int32_t agent = start;
#define SENSE(cell, ahead)                                                                         \
    do {                                                                                           \
        int32_t r_ = (cell) / width, c_ = (cell) % width;                                          \
        int32_t nb_[4] = {c_ + 1 < width ? (cell) + 1 : -1, r_ + 1 < height ? (cell) + width : -1, \
                          c_ > 0 ? (cell) - 1 : -1, r_ > 0 ? (cell) - width : -1};                 \
        for (int k_ = 0; k_ < 4; k_++) {                                                           \
            int32_t t_ = nb_[k_];                                                                  \
            if (t_ >= 0 && truth[t_] && !known[t_]) { known[t_] = 1; if (path_at[t_] > (ahead)) blocked = 1; } \
        }                                                                                          \
    } while (0)
    int blocked = 0;
    SENSE(agent, INF);
    while (agent != target) {
        counter++;
        searches++;
        int32_t from = backward ? target : agent, to = backward ? agent : target;
        int32_t to_row = to / width, to_col = to % width;
        g[from] = 0; search[from] = counter; g[to] = INF; search[to] = counter;
        for (int64_t i = 0; i < heap_size; i++) heap_at[heap_cell[i]] = -1;  /* empty OPEN */
        heap_size = 0;
        int32_t n_closed = 0;
        heap_key_t stamp = 0;
#define H(c) ((adaptive && h_learned[c] >= 0) ? h_learned[c] : abs((c) / width - to_row) + abs((c) % width - to_col))
#define KEY(f, gg) (((heap_key_t)(f) << (T + S)) | ((heap_key_t)(larger_g ? n - 1 - (gg) : (gg)) << S) | stamp)
        heap_push(KEY(H(from), 0), from);
        for (;;) {
            if (heap_size == 0 || (heap_key_t)g[to] <= heap_key[0] >> (T + S)) break;
            int32_t s = heap_pop();
            expansions++;
            if (adaptive) closed[n_closed++] = s;
            int32_t r = s / width, c = s % width, gn = g[s] + 1;
            for (int k = 0; k < 4; k++) {  /* east, south, west, north */
                int32_t nr = r + DR[k], nc = c + DC[k];
                if (nr < 0 || nr >= height || nc < 0 || nc >= width) continue;
                int32_t t = nr * width + nc;
                if (known[t]) continue;
                if (search[t] != counter) { g[t] = INF; search[t] = counter; }
                if (g[t] > gn) {
                    g[t] = gn; tree[t] = s;
                    stamp++;
                    int32_t h = (adaptive && h_learned[t] >= 0) ? h_learned[t] : abs(nr - to_row) + abs(nc - to_col);
                    heap_push(KEY(gn + h, gn), t);
                }
            }
        }
        if (g[to] == INF) { reached = 0; break; }
        if (adaptive)
            for (int32_t i = 0; i < n_closed; i++) h_learned[closed[i]] = g[to] - g[closed[i]];
        /* the path, agent first: position of a cell = its distance from the agent along the tree */
        int32_t length = g[to] + 1;
        for (int32_t cell = to;; cell = tree[cell]) {
            int32_t at = backward ? g[to] - g[cell] : g[cell];
            path[at] = cell; path_at[cell] = at;
            if (cell == from) break;
        }
        blocked = 0;
        for (int32_t step = 1; step < length && !blocked; step++) {
            agent = path[step];
            moves++;
            SENSE(agent, step);
        }
        for (int32_t i = 0; i < length; i++) path_at[path[i]] = -1;
    }
    int64_t state_bytes = (int64_t)n * (4 + 4 + 4 + 4 + 4 + 1 + (int64_t)sizeof(heap_key_t) + 8 + (adaptive ? 8 : 0));
    out[0] = reached; out[1] = searches; out[2] = expansions; out[3] = moves; out[4] = state_bytes;
    free(g); free(search); free(tree); free(path_at); free(h_learned); free(closed); free(path); free(known);
    free(heap_key); free(heap_cell); free(heap_at);
    return 0;
}

/* The floor: a plain FIFO breadth-first search of the true grid from start; returns its expansions. */
int64_t bfs_expansions(const uint8_t *truth, int32_t height, int32_t width, int32_t start) {
    int32_t n = height * width, *queue = malloc((size_t)n * 4);
    uint8_t *seen = calloc((size_t)n, 1);
    int64_t head = 0, tail = 0;
    queue[tail++] = start; seen[start] = 1;
    while (head < tail) {
        int32_t s = queue[head++], r = s / width, c = s % width;
        if (c + 1 < width && !truth[s + 1] && !seen[s + 1]) { seen[s + 1] = 1; queue[tail++] = s + 1; }
        if (r + 1 < height && !truth[s + width] && !seen[s + width]) { seen[s + width] = 1; queue[tail++] = s + width; }
        if (c > 0 && !truth[s - 1] && !seen[s - 1]) { seen[s - 1] = 1; queue[tail++] = s - 1; }
        if (r > 0 && !truth[s - width] && !seen[s - width]) { seen[s - width] = 1; queue[tail++] = s - width; }
    }
    free(queue); free(seen);
    return head;
}

#ifdef STUDENT_MAIN
/* Read a .map (type/height/width/map header, '@' or 'T' blocked) into a fresh uint8 grid. */
static uint8_t *read_map(const char *name, int32_t *height, int32_t *width) {
    FILE *f = fopen(name, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", name); exit(2); }
    char word[64], line[1 << 16];
    *height = *width = 0;
    while (fscanf(f, "%63s", word) == 1 && strcmp(word, "map") != 0) {
        if (!strcmp(word, "height")) { if (fscanf(f, "%d", height) != 1) exit(2); }
        else if (!strcmp(word, "width")) { if (fscanf(f, "%d", width) != 1) exit(2); }
    }
    uint8_t *grid = malloc((size_t)*height * *width);
    for (int32_t r = 0; r < *height; r++) {
        if (fscanf(f, "%65535s", line) != 1) { fprintf(stderr, "%s: short map\n", name); exit(2); }
        for (int32_t c = 0; c < *width; c++) grid[(size_t)r * *width + c] = line[c] != '.' && line[c] != 'G';
    }
    fclose(f);
    return grid;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: student SCEN forward|backward|adaptive larger_g|smaller_g\n"); return 2; }
    FILE *scen = fopen(argv[1], "r");
    if (!scen) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    char folder[4096], map_name[4096], path[8200], line[8192];
    strncpy(folder, argv[1], sizeof folder - 1); folder[sizeof folder - 1] = 0;
    char *slash = strrchr(folder, '/');
    if (slash) slash[1] = 0; else folder[0] = 0;
    int backward = !strcmp(argv[2], "backward"), adaptive = !strcmp(argv[2], "adaptive");
    int larger_g = !strcmp(argv[3], "larger_g");
    int number = 0;
    while (fgets(line, sizeof line, scen)) {
        int bucket, w, h, sx, sy, gx, gy;
        if (sscanf(line, "%d %4095s %d %d %d %d %d %d", &bucket, map_name, &w, &h, &sx, &sy, &gx, &gy) != 8) continue;
        snprintf(path, sizeof path, "%s%s", folder, map_name);
        int32_t height, width;
        uint8_t *grid = read_map(path, &height, &width);
        int64_t out[5];
        if (student_run(grid, height, width, sy * width + sx, gy * width + gx, backward, adaptive, larger_g, out)) {
            fprintf(stderr, "%s: too large for %d-bit packed keys (build with -DSTUDENT_WIDE_KEY)\n", path, KEY_BITS + 1);
            return 1;
        }
        printf("{\"maze\": %d, \"reached\": %s, \"searches\": %lld, \"expansions\": %lld, \"moves\": %lld}\n", number++,
               out[0] ? "true" : "false", (long long)out[1], (long long)out[2], (long long)out[3]);
        free(grid);
    }
    fclose(scen);
    return 0;
}
#endif
