/* A bare WebSocket echo server on wslay (the framing library mockd uses), for bench/websocket.sh:
 * the floor mockd's echo round trip is compared with. One thread, epoll, non-blocking sockets;
 * the opening handshake read by hand (Sec-WebSocket-Accept with OpenSSL's SHA-1), then every
 * text or binary message sent back as it came. Listens on 127.0.0.1 only and exits after
 * SECONDS (alarm), so a bench that dies cannot leave it running.
 *
 *     cc -O2 -o wslay-echo wslay-echo.c -lwslay -lcrypto
 *     wslay-echo PORT SECONDS      (prints "listening" once it accepts) */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wslay/wslay.h>

struct peer {
    int fd;
    wslay_event_context_ptr context; /* NULL until the handshake is answered */
    size_t used;
    size_t taken; /* bytes of head already handed to wslay: those after the head's blank line */
    char head[4096];
};

static ssize_t receive_bytes(wslay_event_context_ptr context, uint8_t *buffer, size_t length, int flags, void *data) {
    (void)flags;
    struct peer *peer = data;
    if (peer->taken < peer->used) { /* frames that came in the same read as the head */
        size_t n = peer->used - peer->taken < length ? peer->used - peer->taken : length;
        memcpy(buffer, peer->head + peer->taken, n);
        peer->taken += n;
        return (ssize_t)n;
    }
    ssize_t got = read(peer->fd, buffer, length);
    if (got < 0) {
        wslay_event_set_error(context, errno == EAGAIN || errno == EWOULDBLOCK ? WSLAY_ERR_WOULDBLOCK : WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
    if (got == 0) {
        wslay_event_set_error(context, WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
    return got;
}

static ssize_t send_bytes(wslay_event_context_ptr context, const uint8_t *bytes, size_t length, int flags, void *data) {
    (void)flags;
    struct peer *peer = data;
    ssize_t sent = send(peer->fd, bytes, length, MSG_NOSIGNAL);
    if (sent < 0) {
        wslay_event_set_error(context, errno == EAGAIN || errno == EWOULDBLOCK ? WSLAY_ERR_WOULDBLOCK : WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
    return sent;
}

static void on_message(wslay_event_context_ptr context, const struct wslay_event_on_msg_recv_arg *message, void *data) {
    (void)data;
    if (wslay_is_ctrl_frame(message->opcode)) return; /* wslay answers pings and closes itself */
    struct wslay_event_msg echo = {message->opcode, message->msg, message->msg_length};
    wslay_event_queue_msg(context, &echo);
}

static const struct wslay_event_callbacks callbacks = {receive_bytes, send_bytes, NULL, NULL, NULL, NULL, on_message};

/* Answers the upgrade once the head is all there: 1 done, 0 more to read, -1 refused. */
static int handshake(struct peer *peer) {
    peer->head[peer->used] = 0;
    const char *end = strstr(peer->head, "\r\n\r\n");
    if (!end) return peer->used + 1 < sizeof peer->head ? 0 : -1;
    peer->taken = (size_t)(end + 4 - peer->head);
    const char *name = strcasestr(peer->head, "\r\nSec-WebSocket-Key:");
    if (!name) return -1;
    name += strlen("\r\nSec-WebSocket-Key:");
    while (*name == ' ') name++;
    size_t key_length = strcspn(name, "\r\n ");
    char joined[128];
    if (key_length > 64) return -1;
    snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)key_length, name);
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)joined, strlen(joined), digest);
    unsigned char accept[64];
    EVP_EncodeBlock(accept, digest, SHA_DIGEST_LENGTH);
    char answer[256];
    int length = snprintf(answer, sizeof answer,
                          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Accept: %s\r\n\r\n",
                          accept);
    if (send(peer->fd, answer, length, MSG_NOSIGNAL) != length) return -1;
    wslay_event_context_server_init(&peer->context, &callbacks, peer);
    return 1;
}

static void drop(int poller, struct peer *peer) {
    epoll_ctl(poller, EPOLL_CTL_DEL, peer->fd, NULL);
    close(peer->fd);
    if (peer->context) wslay_event_context_free(peer->context);
    free(peer);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s PORT SECONDS\n", argv[0]);
        return 2;
    }
    alarm((unsigned)atoi(argv[2]));
    int listener = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1024) != 0) {
        perror("wslay-echo: bind");
        return 1;
    }
    int poller = epoll_create1(0);
    struct epoll_event watch = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &watch);
    printf("listening\n");
    fflush(stdout);
    struct epoll_event ready[64];
    for (;;) {
        int count = epoll_wait(poller, ready, 64, -1);
        for (int r = 0; r < count; r++) {
            struct peer *peer = ready[r].data.ptr;
            if (!peer) {
                int fd = accept(listener, NULL, NULL);
                if (fd < 0) continue;
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                peer = calloc(1, sizeof *peer);
                peer->fd = fd;
                struct epoll_event each = {.events = EPOLLIN, .data.ptr = peer};
                epoll_ctl(poller, EPOLL_CTL_ADD, fd, &each);
                continue;
            }
            if (!peer->context) {
                ssize_t got = read(peer->fd, peer->head + peer->used, sizeof peer->head - 1 - peer->used);
                if (got <= 0) {
                    if (got < 0 && errno == EAGAIN) continue;
                    drop(poller, peer);
                    continue;
                }
                peer->used += got;
                int done = handshake(peer);
                if (done < 0) drop(poller, peer);
                if (done <= 0 || peer->taken == peer->used) continue;
                /* Frames came with the head: read them now, as if the socket had them. */
            }
            if ((ready[r].events & EPOLLIN) && wslay_event_recv(peer->context) != 0) {
                drop(poller, peer);
                continue;
            }
            if (wslay_event_want_write(peer->context) && wslay_event_send(peer->context) != 0) {
                drop(poller, peer);
                continue;
            }
            if (!wslay_event_want_read(peer->context) && !wslay_event_want_write(peer->context)) {
                drop(poller, peer);
                continue;
            }
            struct epoll_event each = {.events = EPOLLIN | (wslay_event_want_write(peer->context) ? EPOLLOUT : 0), .data.ptr = peer};
            epoll_ctl(poller, EPOLL_CTL_MOD, peer->fd, &each);
        }
    }
}
