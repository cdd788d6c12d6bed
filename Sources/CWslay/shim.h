// wslay: RFC 6455 framing (masking, fragments, control frames, the close handshake) over a
// socket the caller reads and writes. Debian's libwslay-dev ships no pkg-config file, so the
// header is found on the default include path (Homebrew on Apple silicon: docs/INSTALL.md).
#ifndef CWSLAY_SHIM_H
#define CWSLAY_SHIM_H
#include <wslay/wslay.h>
#endif
