/* The clock and the sorting the C bench clients (streams-client.c, websocket-client.c) share. */
#ifndef CLIENT_TIMING_H
#define CLIENT_TIMING_H

#include <time.h>

/* Milliseconds on the monotonic clock. */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

/* qsort's order for doubles. */
static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
