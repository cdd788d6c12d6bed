# Shared by static-deps.sh and mhd1-deps.sh (sourced): Debian source packages fetched through
# a private apt list (deb-src lines for the releases asked for, read from a folder of the
# caller's), so the system's apt configuration is never changed; and the one way both build
# libmicrohttpd (build_libmicrohttpd). The caller defines `log`.

# Writes WORK/sources.list, one deb-src line per SUITE from the Debian mirror this machine's apt
# already uses (deb.debian.org when it names none; a `*-security` suite from the mirror's
# `-security` twin), creates WORK/lists, and sets APT to the apt-get options that read only
# them. Needs no network.
debian_sources_list() {
  local work=$1 suite mirror
  shift
  mirror=$( { sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null
              awk '$1 == "deb" { print $2 }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null; } \
            | grep -E "debian/?$" | sed "s,/*$,," | sort -u | head -1 || true)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  DEBIAN_MIRROR=$mirror
  : > "$work/sources.list"
  for suite in "$@"; do
    case "$suite" in
      *-security) printf 'deb-src %s-security %s main\n' "$mirror" "$suite" ;;
      *) printf 'deb-src %s %s main\n' "$mirror" "$suite" ;;
    esac >> "$work/sources.list"
  done
  mkdir -p "$work/lists/partial"
  APT=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/nonexistent
       -o "Dir::State::Lists=$work/lists" -o APT::Sandbox::User=root
       # A stalled connection to the mirror is given up and tried again, instead of holding
       # the build until its own timeout (seen: an image build waiting 10 minutes on one).
       -o Acquire::http::Timeout=60 -o Acquire::Retries=3)
}

# debian_source WORK SUITE... -- PACKAGE...: the source of each PACKAGE from those suites,
# downloaded into WORK and unpacked with Debian's patches into WORK/PACKAGE.
debian_source() {
  local work=$1 suites=() package
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do suites+=("$1"); shift; done
  shift
  debian_sources_list "$work" "${suites[@]}"
  log "apt-get source $* (${suites[*]}, from $DEBIAN_MIRROR)"
  apt-get -q "${APT[@]}" update >&2
  (cd "$work" && apt-get -q "${APT[@]}" source --download-only "$@" >&2)
  # --no-check: dpkg-source would want the uploader's key; apt already checked every file
  # against the signed Sources index.
  for package in "$@"; do
    (cd "$work" && dpkg-source -x --no-check "${package}"_*.dsc "$package" >/dev/null)
  done
}

# build_libmicrohttpd WORK PREFIX: libmicrohttpd 1.0.x from Debian 13 (trixie)'s source package
# built into PREFIX as a static library without HTTPS (mockd serves plain HTTP; no GnuTLS chain
# to link), headers and pkg-config file; sets MHD_DEBIAN_VERSION (e.g. 1.0.1-4). The trixie
# list works from a bookworm system or container: only its signed Sources index and the source
# files are read, checked with the trixie keys bookworm's debian-archive-keyring carries (from
# 2023.3+deb12u2 on), and nothing is installed from it.
build_libmicrohttpd() {
  local work=$1/libmicrohttpd-source prefix=$2 version
  mkdir -p "$work"
  debian_source "$work" trixie -- libmicrohttpd
  version=$(cd "$work" && ls libmicrohttpd_*.dsc | sed 's/^libmicrohttpd_//; s/\.dsc$//')
  case "$version" in
    1.*) ;;
    *) log "trixie's libmicrohttpd is $version, not 1.x"; return 1 ;;
  esac
  log "building libmicrohttpd $version (static, no HTTPS) into $prefix"
  mkdir -p "$prefix"
  (cd "$work/libmicrohttpd" && ./configure -q --prefix="$prefix" --enable-static --disable-shared --disable-https \
     --disable-doc --disable-examples --disable-curl --disable-nls --without-gnutls >&2 \
   && make -s -j"$(nproc)" -C src/microhttpd install >&2 \
   && make -s -C src/include install >&2 && make -s install-pkgconfigDATA >&2)
  [ -f "$prefix/lib/libmicrohttpd.a" ] || { log "libmicrohttpd.a was not built"; return 1; }
  MHD_DEBIAN_VERSION=$version
}
