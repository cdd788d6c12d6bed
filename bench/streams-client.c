/* Many streams at once, for bench/streams.sh: CLIENTS connections each read GET PATH (server-sent
 * events at a fixed interval) and note when each event arrives. Prints how late events came
 * against the schedule their stream's first event set (p50, p99, max, in ms); exits 1 on a
 * failure or a p99 over 20 ms. One thread and epoll: the Python client it replaces took most of
 * a core to parse 20,000 events a second, so on a two-core machine it measured itself.
 * Talks to 127.0.0.1 only; bounded by a timeout.
 *
 *     cc -O2 -o streams-client streams-client.c
 *     streams-client PORT PATH CLIENTS EVENTS INTERVAL_MS
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client-timing.h"

struct stream {
    int fd;
    int head_done;   /* the response head (up to its blank line) has been read */
    int head_bytes;  /* bytes of the head read so far */
    int status_ok;   /* its status line ("HTTP/1.1 200 OK") has 200 at bytes 9-11 */
    int events;      /* events seen */
    char last[3];    /* the bytes before this read: a "\n\n" or "\r\n\r\n" may span two reads */
    double first;    /* when the first event came */
};

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s PORT PATH CLIENTS EVENTS INTERVAL_MS\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]), clients = atoi(argv[3]), events = atoi(argv[4]);
    double interval = atof(argv[5]);
    const char *path = argv[2];
    char request[512];
    int request_length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);

    struct stream *streams = calloc(clients, sizeof *streams);
    double *late = malloc(sizeof(double) * (size_t)clients * events);
    size_t late_count = 0;
    int failures = 0, open_streams = 0;
    int poller = epoll_create1(0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);

    double started = now_ms();
    for (int i = 0; i < clients; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
            write(fd, request, request_length) != request_length) {
            fprintf(stderr, "stream %d: %s\n", i, strerror(errno));
            failures++;
            if (fd >= 0) close(fd);
            streams[i].fd = -1;
            continue;
        }
        streams[i].fd = fd;
        struct epoll_event watch = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        epoll_ctl(poller, EPOLL_CTL_ADD, fd, &watch);
        open_streams++;
    }

    double deadline = started + events * interval + 60000;
    static char buffer[65536];
    struct epoll_event ready[256];
    while (open_streams > 0 && now_ms() < deadline) {
        int count = epoll_wait(poller, ready, 256, 1000);
        double now = now_ms();
        for (int r = 0; r < count; r++) {
            struct stream *s = &streams[ready[r].data.u32];
            ssize_t got = read(s->fd, buffer, sizeof buffer);
            if (got <= 0) {
                if (s->events < events) {
                    if (failures == 0) fprintf(stderr, "a stream ended after %d of %d events\n", s->events, events);
                    failures++;
                }
                close(s->fd);
                s->fd = -1;
                open_streams--;
                continue;
            }
            for (ssize_t k = 0; k < got; k++) {
                char byte = buffer[k];
                /* The head ends with "\r\n\r\n"; each event (mockd writes LF lines) with "\n\n",
                 * whatever chunk framing ("\r\n") comes around it. */
                int blank = byte == '\n' && (s->head_done ? s->last[2] == '\n'
                                                           : s->last[2] == '\r' && s->last[1] == '\n' && s->last[0] == '\r');
                if (!s->head_done) {
                    int at = s->head_bytes++;
                    if (at == 9) s->status_ok = byte == '2';
                    else if (at == 10 || at == 11) s->status_ok = s->status_ok && byte == '0';
                }
                s->last[0] = s->last[1];
                s->last[1] = s->last[2];
                s->last[2] = byte;
                if (!blank) continue;
                if (!s->head_done) {
                    s->head_done = 1;
                    if (!s->status_ok) {
                        if (failures == 0) fprintf(stderr, "a stream was not answered 200\n");
                        failures++;
                        s->events = events;  /* stop counting it */
                    }
                    continue;
                }
                if (s->events == 0) s->first = now;
                else late[late_count++] = now - (s->first + s->events * interval);
                s->events++;
            }
            if (s->events >= events) {
                close(s->fd);
                s->fd = -1;
                open_streams--;
            }
        }
    }
    failures += open_streams;  /* still open at the deadline */

    qsort(late, late_count, sizeof *late, compare);
#define AT(q) (late_count ? late[(size_t)((q) * (late_count - 1))] : 0.0 / 0.0)
    double p99 = AT(0.99);
    printf("%d streams x %d events every %.0f ms in %.1f s: lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms; failures: %d\n",
           clients, events, interval, (now_ms() - started) / 1000, AT(0.5), p99, late_count ? late[late_count - 1] : 0.0 / 0.0,
           failures);
    return failures == 0 && p99 <= 20 ? 0 : 1;
}
