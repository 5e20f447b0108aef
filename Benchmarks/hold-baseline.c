/*
 * The hold model in plain C: the yardstick for `HoldBenchmark.run()` (performance.md asks the
 * Swift kernel to stay within 2x of a minimal binary heap written in C).
 *
 * Same workload as the Swift side: 10,000 pending timers, 5,000,000 events, each fired timer
 * re-armed at now + an exponential delay (mean 1 ms, in integer nanoseconds) drawn from
 * xoshiro256** seeded through SplitMix64 (seed 1). The heap is a minimal binary min-heap of
 * (time, seq, id) ordered by (time, seq), with no cancellation support, so it is a lower bound
 * on what the Swift queue (which also tracks generations for O(1) cancel) can do.
 *
 * Build and run with run-hold-baseline.sh; prints one JSON line like `bgsim bench --json`.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  int64_t time;
  uint64_t seq;
  uint32_t id;
} entry;

static entry *heap;
static size_t heap_count;

static inline int precedes(const entry *a, const entry *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void push(entry e) {
  size_t child = heap_count++;
  while (child > 0) {
    size_t parent = (child - 1) / 2;
    if (!precedes(&e, &heap[parent])) break;
    heap[child] = heap[parent];
    child = parent;
  }
  heap[child] = e;
}

static entry pop(void) {
  entry top = heap[0];
  entry last = heap[--heap_count];
  size_t n = heap_count, parent = 0;
  for (;;) {
    size_t child = 2 * parent + 1;
    if (child >= n) break;
    if (child + 1 < n && precedes(&heap[child + 1], &heap[child])) child++;
    if (!precedes(&heap[child], &last)) break;
    heap[parent] = heap[child];
    parent = child;
  }
  if (n > 0) heap[parent] = last;
  return top;
}

static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static inline uint64_t next(void) {
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* An exponential delay in whole nanoseconds, at least 1, rounded half away from zero as
 * SeededGenerator.exponential does. */
static inline int64_t exponential_ns(double mean) {
  double u = (double)(next() >> 11) * 0x1.0p-53;
  double ns = round(-mean * log1p(-u));
  return ns < 1 ? 1 : (int64_t)ns;
}

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  const size_t pending = 10000;
  const long events = argc > 1 ? atol(argv[1]) : 5000000;
  const double mean = 1e6; /* 1 ms in nanoseconds */
  uint64_t seed = 1;
  s[0] = splitmix64(&seed);
  s[1] = splitmix64(&seed);
  s[2] = splitmix64(&seed);
  s[3] = splitmix64(&seed);
  heap = malloc(sizeof(entry) * (pending + 1));
  if (!heap) return 1;

  double start = seconds_now();
  uint64_t seq = 0, checksum = 0;
  int64_t now = 0;
  for (size_t i = 0; i < pending; i++) push((entry){exponential_ns(mean), seq++, (uint32_t)i});
  for (long i = 0; i < events; i++) {
    entry e = pop();
    now = e.time;
    checksum = checksum * 31 + e.id + (uint64_t)e.time;
    push((entry){now + exponential_ns(mean), seq++, e.id});
  }
  double wall = seconds_now() - start;

  printf("{\"workload\": \"hold-c-baseline\", \"events\": %ld, \"wallSeconds\": %.6f, "
         "\"eventsPerSecond\": %.4g, \"checksum\": %llu, \"finalTime\": %lld}\n",
         events, wall, events / wall, (unsigned long long)checksum, (long long)now);
  free(heap);
  return 0;
}
