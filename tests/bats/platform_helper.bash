# shellcheck shell=bash
# use_platform NAME: the platform persona NAME (tests/fixtures/personas,
# persona_helper.bash), plus an ldconfig first on PATH whose cache lists the
# OpenSSL that persona ships (PERSONA_OPENSSL): playbooks/lib/platform.sh asks
# the loader's cache whether OpenSSL 1.1 is there, and the host's answer must
# not leak into the persona.
load persona_helper

use_platform() {
  local name="$1" dir="${BATS_TEST_TMPDIR}/ldconfig-bin" PERSONA_OPENSSL=''
  use_persona "$name"
  # shellcheck source=tests/fixtures/personas/ubuntu-24.04/persona
  source "${PERSONAS_DIR}/${name}/persona"
  mkdir -p "$dir"
  {
    printf '#!/usr/bin/env bash\n'
    printf 'printf "%%s\\n" "libs found in cache \\`/etc/ld.so.cache'"'"'"\n'
    printf 'printf "\\t%%s\\n" "libssl.so.3 (libc6,x86-64) => /lib/x86_64-linux-gnu/libssl.so.3" "libcrypto.so.3 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcrypto.so.3"\n'
    if [[ "$PERSONA_OPENSSL" == 1.1 ]]; then
      printf 'printf "\\t%%s\\n" "libssl.so.1.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libssl.so.1.1" "libcrypto.so.1.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcrypto.so.1.1"\n'
    fi
  } >"${dir}/ldconfig"
  chmod +x "${dir}/ldconfig"
  export PATH="${dir}:${PATH}"
}
