/* What the encode benchmarks share: a monotonic clock in seconds, and qsort's order for sorting the times
 * (the median is reported). */
#ifndef WF_BENCH_CLOCK_H
#define WF_BENCH_CLOCK_H

#include <time.h>

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
