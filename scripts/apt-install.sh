# Sourced, not run: `apt_install PKG...` installs Debian packages for the set-up and test scripts
# (ensure-services.sh, ensure-chromium.sh, ensure-tools.sh), the one place that decides whether it may.
# It may when running as root with apt-get and FALLOW_NO_INSTALL is unset; it installs quietly (log in
# $TMP/apt.log, TMP set by the caller), waits up to 10 minutes for another apt-get's lock, and refreshes the
# package lists only when the first attempt fails. Returns 1 with APT_WHY saying why it did not install.
# (fd 9, a caller's flock, is closed for apt-get: a daemon a package starts must not hold the caller's lock.)
apt_install() {
  APT_WHY=""
  if [ -n "${FALLOW_NO_INSTALL:-}" ]; then APT_WHY="not installing: FALLOW_NO_INSTALL is set"
  elif [ "$(id -u)" -ne 0 ]; then APT_WHY="not installing: not root"
  elif ! command -v apt-get >/dev/null 2>&1; then APT_WHY="not installing: no apt-get"; fi
  [ -z "$APT_WHY" ] || return 1
  echo "$(basename "$0" .sh): installing $* with apt-get (log: .tmp/apt.log)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  local apt=(apt-get -y -q -o DPkg::Lock::Timeout=600 install --no-install-recommends "$@")
  if "${apt[@]}" >>"$TMP/apt.log" 2>&1 9>&-; then return 0; fi
  apt-get -q update >>"$TMP/apt.log" 2>&1 9>&- || true
  if "${apt[@]}" >>"$TMP/apt.log" 2>&1 9>&-; then return 0; fi
  APT_WHY="apt-get install $* failed (see .tmp/apt.log: $(tail -n 1 "$TMP/apt.log"))"
  return 1
}
