// libcurl, loaded with dlopen only when mockd proxies (--proxy): a mock server that never
// proxies does not load libcurl and the ~35 libraries it pulls in.
// The helper functions are filled in by the MockdProxy work; see UpstreamProxy.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#endif
