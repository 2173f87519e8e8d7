# shellcheck shell=bash
# Platform personas for the tests of playbooks/lib/platform.sh: commands first
# on PATH that answer as m's platform detection asks (uname, lsb_release) and
# an ldconfig whose cache lists OpenSSL 1.1 or not.

# persona ID RELEASE [openssl11]: this test's PATH starts with the persona.
# `openssl11` makes the loader's cache list libssl.so.1.1 and libcrypto.so.1.1
# (Ubuntu 20.04, Debian 11); without it, only OpenSSL 3.
persona() {
  local id="$1" release="$2" ssl="${3:-}" dir="${BATS_TEST_TMPDIR}/persona"
  mkdir -p "$dir"
  cat >"${dir}/uname" <<SH
#!/usr/bin/env bash
case "\${1:-}" in
  -m) echo x86_64 ;;
  '') echo Linux ;;
  *) exec /usr/bin/uname "\$@" ;;
esac
SH
  cat >"${dir}/lsb_release" <<SH
#!/usr/bin/env bash
case "\${1:-}" in
  -si) echo '${id}' ;;
  -sr) echo '${release}' ;;
  *) echo 'No LSB modules are available.' ;;
esac
SH
  {
    printf '#!/usr/bin/env bash\n'
    printf 'echo "3 libs found in cache \\`/etc/ld.so.cache'"'"'"\n'
    printf 'echo "	libssl.so.3 (libc6,x86-64) => /lib/x86_64-linux-gnu/libssl.so.3"\n'
    printf 'echo "	libcrypto.so.3 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcrypto.so.3"\n'
    if [[ "$ssl" == openssl11 ]]; then
      printf 'echo "	libssl.so.1.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libssl.so.1.1"\n'
      printf 'echo "	libcrypto.so.1.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcrypto.so.1.1"\n'
    fi
  } >"${dir}/ldconfig"
  chmod +x "${dir}/uname" "${dir}/lsb_release" "${dir}/ldconfig"
  export PATH="${dir}:${PATH}"
}
