/* WebSocket client for bench/websocket.sh, in C because the Python client could not keep up with
 * 1,000 connections on a two-core machine (its own p99 was 556 ms): one thread, epoll,
 * non-blocking sockets, frames read by hand (RFC 6455), every arrival timed with CLOCK_MONOTONIC.
 * Talks to 127.0.0.1 only; bounded by a deadline.
 *
 *     cc -O2 -o websocket-client websocket-client.c
 *     websocket-client timeline PORT PATH CLIENTS MESSAGES INTERVAL_MS
 *         CLIENTS connections to PATH, each sent MESSAGES messages INTERVAL_MS apart from its
 *         open: the spacing error |gap - INTERVAL_MS| between a connection's messages, p50, p99
 *         and max; exits 1 when a connection fails or gets fewer messages.
 *     websocket-client echo PORT PATH ROUNDS
 *         ROUNDS round trips on one connection (a short text message, its echo): p50, p99, max.
 *
 * The timeline's connections are opened one after another (blocking connect, then non-blocking),
 * and the client reads what arrived between two opens, so a connection's first messages are not
 * left waiting in its socket while the others open. It reports how long its own handling of one
 * epoll batch took at most: a figure near the spacing errors would mean it measured itself. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client-timing.h"

struct connection {
    int fd;
    int head_done;       /* the 101's head (up to its blank line) has been read */
    int done;            /* all its messages came; closed at the end */
    int messages;        /* data messages read */
    double last;         /* when the previous message came */
    size_t used;         /* bytes in buffer */
    unsigned char buffer[4096];
};

static double at(const double *sorted, size_t count, double q) {
    return count ? sorted[(size_t)(q * (count - 1))] : 0.0 / 0.0;
}

/* A connected TCP socket to 127.0.0.1:port that has sent the upgrade of path (blocking). */
static int open_upgrade(int port, const char *path) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char request[1024];
    /* Any 16 bytes in base64 will do: the client does not check Sec-WebSocket-Accept. */
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                          path, port);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 || write(fd, request, length) != length) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A masked client frame of one text message (or a close, opcode 8, without a payload). */
static size_t client_frame(unsigned char *out, int opcode, const char *payload, size_t length) {
    static const unsigned char mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t n = 0;
    out[n++] = 0x80 | opcode;
    out[n++] = 0x80 | (unsigned char)length; /* short messages only (< 126 bytes) */
    memcpy(out + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < length; i++) out[n++] = payload[i] ^ mask[i % 4];
    return n;
}

/* Takes the head off the front of c->buffer once its blank line is there: 1 when it is a 101,
 * -1 when it is another answer, 0 when more must be read. */
static int take_head(struct connection *c) {
    for (size_t i = 3; i < c->used; i++) {
        if (memcmp(c->buffer + i - 3, "\r\n\r\n", 4) != 0) continue;
        int ok = c->used >= 12 && memcmp(c->buffer + 9, "101", 3) == 0;
        memmove(c->buffer, c->buffer + i + 1, c->used - i - 1);
        c->used -= i + 1;
        c->head_done = 1;
        return ok ? 1 : -1;
    }
    return 0;
}

/* The length of the whole frame at the front of c->buffer, 0 when it is not all there; its
 * opcode and whether it ends a message in *opcode and *fin. Server frames are not masked. */
static size_t frame_length(const struct connection *c, int *opcode, int *fin) {
    if (c->used < 2) return 0;
    size_t header = 2, length = c->buffer[1] & 0x7f;
    if (length == 126) {
        if (c->used < 4) return 0;
        header = 4;
        length = (size_t)c->buffer[2] << 8 | c->buffer[3];
    } else if (length == 127) {
        if (c->used < 10) return 0;
        header = 10;
        length = 0;
        for (int i = 2; i < 10; i++) length = length << 8 | c->buffer[i];
    }
    if (header + length > sizeof c->buffer) return (size_t)-1;
    if (c->used < header + length) return 0;
    *opcode = c->buffer[0] & 0x0f;
    *fin = c->buffer[0] >> 7;
    return header + length;
}

/* The timeline's state: one run a process. */
static struct connection *connections;
static double *errors;
static size_t error_count;
static int failures, messages_each, poller;
static double interval_ms, busiest;
static unsigned char close_frame[8];
static size_t close_length;

/* Reads what is ready, waiting at most wait_ms; returns how many connections finished. */
static int handle(int wait_ms) {
    struct epoll_event ready[256];
    int count = epoll_wait(poller, ready, 256, wait_ms);
    double now = now_ms();
    int finished = 0;
    for (int r = 0; r < count; r++) {
        struct connection *c = &connections[ready[r].data.u32];
        if (c->fd < 0 || c->done) continue;
        ssize_t got = read(c->fd, c->buffer + c->used, sizeof c->buffer - c->used);
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        int failed = got <= 0;
        if (!failed) c->used += got;
        if (!failed && !c->head_done && take_head(c) < 0) failed = 1;
        while (!failed && c->head_done && c->messages < messages_each) {
            int opcode = 0, fin = 0;
            size_t length = frame_length(c, &opcode, &fin);
            if (length == (size_t)-1) failed = 1;
            if (length == 0 || failed) break;
            if ((opcode == 1 || opcode == 2 || opcode == 0) && fin) {
                if (c->messages > 0) {
                    double error = now - c->last - interval_ms;
                    errors[error_count++] = error < 0 ? -error : error;
                }
                c->last = now;
                c->messages++;
            } else if (opcode == 8) {
                failed = 1;
            }
            memmove(c->buffer, c->buffer + length, c->used - length);
            c->used -= length;
        }
        if (failed || c->messages >= messages_each) {
            if (c->messages < messages_each) {
                if (failures == 0) fprintf(stderr, "a connection ended after %d of %d messages\n", c->messages, messages_each);
                failures++;
                close(c->fd);
                c->fd = -1;
            } else {
                /* Closed once every connection is done: closing a loopback socket runs the
                 * peer's side of TCP in this thread, and hundreds finishing together would
                 * hold up reading the others' last messages. */
                epoll_ctl(poller, EPOLL_CTL_DEL, c->fd, NULL);
                c->done = 1;
            }
            finished++;
        }
    }
    double spent = now_ms() - now;
    if (spent > busiest) busiest = spent;
    return finished;
}

static int timeline(int port, const char *path, int clients, int messages, double interval) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (rlim_t)clients + 64) {
        limit.rlim_cur = limit.rlim_max < (rlim_t)clients + 64 ? limit.rlim_max : (rlim_t)clients + 64;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    connections = calloc(clients, sizeof *connections);
    errors = malloc(sizeof(double) * (size_t)clients * messages);
    messages_each = messages;
    interval_ms = interval;
    poller = epoll_create1(0);
    close_length = client_frame(close_frame, 8, "", 0);
    int open_count = 0, done = 0;

    double started = now_ms();
    for (int i = 0; i < clients; i++) {
        int fd = open_upgrade(port, path);
        connections[i].fd = fd;
        if (fd < 0) {
            if (failures == 0) fprintf(stderr, "connection %d: %s\n", i, strerror(errno));
            failures++;
            continue;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event watch = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        epoll_ctl(poller, EPOLL_CTL_ADD, fd, &watch);
        open_count++;
        done += handle(0);
    }
    double opened = now_ms();
    double deadline = started + messages * interval + 60000;
    while (done < open_count && now_ms() < deadline) done += handle(100);
    failures += open_count - done; /* still open at the deadline */
    for (int i = 0; i < clients; i++) {
        if (connections[i].fd < 0) continue;
        ssize_t ignored = write(connections[i].fd, close_frame, close_length);
        (void)ignored;
        close(connections[i].fd);
    }

    qsort(errors, error_count, sizeof *errors, compare);
    printf("timeline: %d connections x %d messages at intervalMs %.0f (opened in %.2f s): spacing error p50 %.1f ms, "
           "p99 %.1f ms, max %.1f ms; failures: %d; the client's longest batch %.1f ms\n",
           clients, messages, interval, (opened - started) / 1000, at(errors, error_count, 0.5), at(errors, error_count, 0.99),
           error_count ? errors[error_count - 1] : 0.0 / 0.0, failures, busiest);
    return failures == 0 ? 0 : 1;
}

static int echo(int port, const char *path, int rounds) {
    struct connection *c = calloc(1, sizeof *c);
    c->fd = open_upgrade(port, path);
    if (c->fd < 0) {
        fprintf(stderr, "echo: cannot connect: %s\n", strerror(errno));
        return 1;
    }
    struct timeval timeout = {.tv_sec = 10};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    while (!c->head_done) { /* the 101 first: a message sent before it would be the server's to keep */
        ssize_t got = read(c->fd, c->buffer + c->used, sizeof c->buffer - c->used);
        if (got <= 0 || (c->used += got, take_head(c) < 0)) {
            fprintf(stderr, "echo: the upgrade was not answered 101\n");
            return 1;
        }
    }
    double *times = malloc(sizeof(double) * rounds);
    unsigned char frame[256];
    for (int i = 0; i < rounds; i++) {
        char text[32];
        size_t length = client_frame(frame, 1, text, (size_t)snprintf(text, sizeof text, "m%d", i));
        double start = now_ms();
        if (write(c->fd, frame, length) != (ssize_t)length) {
            fprintf(stderr, "echo: write failed at round %d\n", i);
            return 1;
        }
        for (;;) {
            int opcode = 0, fin = 0;
            if (c->head_done) {
                size_t whole = frame_length(c, &opcode, &fin);
                if (whole == (size_t)-1) return 1;
                if (whole > 0) {
                    memmove(c->buffer, c->buffer + whole, c->used - whole);
                    c->used -= whole;
                    if ((opcode == 1 || opcode == 2) && fin) break;
                    continue;
                }
            }
            ssize_t got = read(c->fd, c->buffer + c->used, sizeof c->buffer - c->used);
            if (got <= 0) {
                fprintf(stderr, "echo: the connection ended (or timed out) at round %d\n", i);
                return 1;
            }
            c->used += got;
            if (!c->head_done && take_head(c) < 0) {
                fprintf(stderr, "echo: the upgrade was not answered 101\n");
                return 1;
            }
        }
        times[i] = (now_ms() - start) * 1000;
    }
    qsort(times, rounds, sizeof *times, compare);
    printf("echo: %d round trips on one connection: p50 %.0f µs, p99 %.0f µs, max %.0f µs\n", rounds, at(times, rounds, 0.5),
           at(times, rounds, 0.99), times[rounds - 1]);
    close(c->fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "timeline") == 0)
        return timeline(atoi(argv[2]), argv[3], atoi(argv[4]), atoi(argv[5]), atof(argv[6]));
    if (argc == 5 && strcmp(argv[1], "echo") == 0) return echo(atoi(argv[2]), argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: %s timeline PORT PATH CLIENTS MESSAGES INTERVAL_MS | echo PORT PATH ROUNDS\n", argv[0]);
    return 2;
}
