/* The least a stream's event can cost the server on loopback: CPU time per send() of one
 * small chunk to one of CLIENTS connections, round robin, paced at RATE sends a second for
 * SECONDS. A child process on another CPU accepts and drains every connection with epoll.
 *     cc -O2 -o send-floor send-floor.c && send-floor CLIENTS RATE SECONDS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); sched_setaffinity(0, sizeof s, &s); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
    int clients = argc > 1 ? atoi(argv[1]) : 1000, rate = argc > 2 ? atoi(argv[2]) : 20000;
    double seconds = argc > 3 ? atof(argv[3]) : 3;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    socklen_t len = sizeof a;
    bind(listener, (void *)&a, sizeof a); listen(listener, 4096); getsockname(listener, (void *)&a, &len);
    pid_t child = fork();
    if (child == 0) {  /* the reader: accept and drain until told to stop */
        pin(1);
        int ep = epoll_create1(0); struct epoll_event e = {.events = EPOLLIN, .data.fd = listener};
        epoll_ctl(ep, EPOLL_CTL_ADD, listener, &e);
        struct epoll_event ev[256]; char buf[65536];
        for (;;) {
            int n = epoll_wait(ep, ev, 256, 1000);
            for (int i = 0; i < n; i++) {
                if (ev[i].data.fd == listener) { int c = accept(listener, 0, 0); struct epoll_event x = {.events = EPOLLIN, .data.fd = c}; epoll_ctl(ep, EPOLL_CTL_ADD, c, &x); }
                else if (read(ev[i].data.fd, buf, sizeof buf) <= 0) close(ev[i].data.fd);
            }
        }
    }
    pin(0);
    int *fds = malloc(sizeof(int) * clients);
    for (int i = 0; i < clients; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1; setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fds[i], (void *)&a, sizeof a)) { perror("connect"); return 1; }
    }
    const char chunk[] = "10\r\ndata: {\"n\":42}\n\n\r\n";  /* one event as a chunk */
    struct rusage r0, r1; getrusage(RUSAGE_SELF, &r0);
    double start = now(); long sent = 0;
    while (now() - start < seconds) {
        long due = (long)((now() - start) * rate);
        for (; sent < due; sent++) send(fds[sent % clients], chunk, sizeof chunk - 1, MSG_NOSIGNAL);
        struct timespec t = {0, 200000}; nanosleep(&t, 0);  /* pace in 0.2 ms steps, as a timer would */
    }
    getrusage(RUSAGE_SELF, &r1);
    double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec)
               + ((r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec)) / 1e6;
    printf("%ld sends to %d connections in %.1f s: %.2f µs of CPU a send, %.1f%% of one CPU\n",
           sent, clients, seconds, cpu * 1e6 / sent, cpu * 100 / seconds);
    kill(child, SIGTERM); waitpid(child, 0, 0);
    return 0;
}
