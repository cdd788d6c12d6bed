/* mhd_raw: bare libmicrohttpd serving a mock folder, the yardstick for mockd's speed.
 *
 * It does the least a server can do with libmicrohttpd and still give mockd's answers for
 * plain files: at start it reads every mock_*.json of --root into memory and makes one
 * libmicrohttpd response for each, reused for every request; a request's file is named by
 * mockd's rule (GET /bench/items/17 -> mock_bench_items_17_get.json; libmicrohttpd hands
 * over the path without its query string); any other path gets one shared 404. One
 * internal epoll thread, as fast as a thread pool when the server has one core.
 *
 * usage: mhd_raw --root DIR [--port N] [--host 127.0.0.1] [--suspend-resume]
 *   --port 0 (the default) takes a free port; the URL is printed on stdout either way.
 *   --suspend-resume adds MHD_ALLOW_SUSPEND_RESUME, which mockd needs for delays: what
 *   that flag alone costs (bench/suspend-cost.sh).
 * SIGINT or SIGTERM stop it.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Files by name: a hash table with linear probing, sized once for the folder. */
struct file {
  char *name;
  struct MHD_Response *response;
};
static struct file *files;
static size_t slots; /* a power of two, at least twice the number of files */
static struct MHD_Response *missing;

static size_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a, 64 bits */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return (size_t)h;
}

static struct file *find(const char *name, size_t n) {
  for (size_t i = hash(name, n) & (slots - 1);; i = (i + 1) & (slots - 1))
    if (!files[i].name || (strlen(files[i].name) == n && !memcmp(files[i].name, name, n)))
      return &files[i];
}

static int is_mock(const char *name) {
  size_t n = strlen(name);
  return n > 9 && !strncmp(name, "mock", 4) && !strcmp(name + n - 5, ".json");
}

static struct MHD_Response *json_response(void *bytes, size_t length) {
  struct MHD_Response *r = MHD_create_response_from_buffer(length, bytes, MHD_RESPMEM_PERSISTENT);
  if (r) MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
  return r;
}

static char *slurp(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *bytes = NULL;
  long n;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    bytes = malloc((size_t)n + 1);
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) { free(bytes); bytes = NULL; }
    *length = (size_t)n;
  }
  fclose(f);
  return bytes;
}

static long load(const char *root) { /* -> number of files, or -1 */
  DIR *dir = opendir(root);
  if (!dir) { perror(root); return -1; }
  size_t count = 0;
  for (struct dirent *e; (e = readdir(dir));) count += is_mock(e->d_name);
  for (slots = 16; slots < 2 * count; slots *= 2) {}
  files = calloc(slots, sizeof *files);
  rewinddir(dir);
  long loaded = 0;
  char path[4096];
  for (struct dirent *e; (e = readdir(dir));) {
    if (!is_mock(e->d_name) || (size_t)loaded == count) continue;
    snprintf(path, sizeof path, "%s/%s", root, e->d_name);
    size_t length;
    char *bytes = slurp(path, &length);
    if (!bytes) { perror(path); continue; }
    struct file *f = find(e->d_name, strlen(e->d_name));
    f->name = strdup(e->d_name);
    f->response = json_response(bytes, length);
    loaded++;
  }
  closedir(dir);
  return loaded;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *body,
                              size_t *body_size, void **request) {
  (void)cls; (void)version; (void)body;
  /* The first call brings the head only. Answering there makes libmicrohttpd close the
   * connection after the answer, so the answer waits for the next call; bodies are dropped. */
  static char started;
  if (!*request) { *request = &started; return MHD_YES; }
  if (*body_size) { *body_size = 0; return MHD_YES; }

  char name[2048]; /* "mock" + path with '/' as '_' + '_' + lower-case method + ".json" */
  size_t u = strlen(url), m = strlen(method), n = 0;
  if (4 + u + 1 + m + 5 >= sizeof name) return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, missing);
  memcpy(name, "mock", 4); n = 4;
  for (size_t i = 0; i < u; i++) name[n++] = url[i] == '/' ? '_' : url[i];
  name[n++] = '_';
  for (size_t i = 0; i < m; i++) name[n++] = (char)(method[i] >= 'A' && method[i] <= 'Z' ? method[i] + 32 : method[i]);
  memcpy(name + n, ".json", 5); n += 5;
  struct file *f = find(name, n);
  return f->name ? MHD_queue_response(connection, MHD_HTTP_OK, f->response)
                 : MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, missing);
}

int main(int argc, char **argv) {
  const char *root = NULL, *host = "127.0.0.1";
  int port = 0;
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--suspend-resume")) flags |= MHD_ALLOW_SUSPEND_RESUME;
    else if (i + 1 < argc && !strcmp(argv[i], "--root")) root = argv[++i];
    else if (i + 1 < argc && !strcmp(argv[i], "--port")) port = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--host")) host = argv[++i];
    else { fprintf(stderr, "mhd_raw: unknown argument %s\nusage: mhd_raw --root DIR [--port N] [--host ADDR] [--suspend-resume]\n", argv[i]); return 2; }
  }
  if (!root) { fprintf(stderr, "mhd_raw: --root DIR is required\n"); return 2; }
  static char not_found[] = "{\"error\": \"no mock for this request\"}";
  missing = json_response(not_found, sizeof not_found - 1);
  long loaded = load(root);
  if (loaded < 0) return 1;

  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) { fprintf(stderr, "mhd_raw: not an IPv4 address: %s\n", host); return 2; }

  /* Signals go to this thread only (blocked before libmicrohttpd starts its thread). */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);

  struct MHD_Daemon *daemon = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, answer, NULL,
                                               MHD_OPTION_SOCK_ADDR, &address,
                                               MHD_OPTION_CONNECTION_LIMIT, 10000u, MHD_OPTION_END);
  if (!daemon) { fprintf(stderr, "mhd_raw: cannot listen on %s:%d\n", host, port); return 1; }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf("mhd_raw: %ld files from %s on http://%s:%u/\n", loaded, root, host, info ? info->port : (unsigned)port);
  fflush(stdout);
  int received;
  sigwait(&stop, &received);
  MHD_stop_daemon(daemon);
  return 0;
}
