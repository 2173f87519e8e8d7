#!/usr/bin/env bats
# The real-MongoDB workflow (.github/workflows/real-mongodb.yml) tests the
# checkout's own tools: the runner image's MongoDB packages go before setup,
# mongodump must resolve into .tools/bin, m stays inside the checkout, and
# OpenSSL 1.1 comes from ./setup/libssl11.sh. Steps are read with PyYAML and
# the guard step is run on a scratch checkout (GITHUB_WORKSPACE).

# shellcheck disable=SC2016 # ${{ ... }} is GitHub's syntax, compared as written
bats_require_minimum_version 1.5.0

WORKFLOW=.github/workflows/real-mongodb.yml

setup() {
  load test_helper
  python3 -c 'import yaml' 2>/dev/null || skip "needs PyYAML to read the workflow"
}

# step_names: the test job's step names, in order, one per line.
step_names() {
  python3 - "${DBA_LAB_ROOT}/${WORKFLOW}" <<'PY'
import sys, yaml
for step in yaml.safe_load(open(sys.argv[1]))["jobs"]["test"]["steps"]:
    print(step.get("name") or step.get("uses"))
PY
}

# step_run NAME: the run script of the step named NAME.
step_run() {
  python3 - "${DBA_LAB_ROOT}/${WORKFLOW}" "$1" <<'PY'
import sys, yaml
for step in yaml.safe_load(open(sys.argv[1]))["jobs"]["test"]["steps"]:
    if step.get("name") == sys.argv[2]:
        print(step["run"])
PY
}

# line_of NAME: the position of a step in the job.
line_of() {
  step_names | grep -nxF "$1" | cut -d: -f1
}

@test "the job runs on ubuntu-24.04 (22.04's images are deprecated), 4.4 and 5.0 with OpenSSL 1.1 from setup" {
  run python3 - "${DBA_LAB_ROOT}/${WORKFLOW}" <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))["jobs"]["test"]
print(job["runs-on"])
print(" ".join(sorted(i["mongodb"] for i in job["strategy"]["matrix"]["include"] if i.get("openssl11"))))
PY
  assert_success
  assert_output $'ubuntu-24.04\n4.4 5.0'
}

@test "the runner image's MongoDB packages are removed before the project's setup runs" {
  local purge setup
  purge=$(line_of "Remove the runner image's MongoDB packages")
  setup=$(line_of "Set up the project")
  [[ -n "$purge" && -n "$setup" ]]
  ((purge < setup))
}

@test "the job pins M_PREFIX and M_BIN_DIR inside the checkout" {
  run -0 python3 -c 'import sys, yaml; env = yaml.safe_load(open(sys.argv[1]))["jobs"]["test"]["env"]; print(env["M_PREFIX"]); print(env["M_BIN_DIR"])' "${DBA_LAB_ROOT}/${WORKFLOW}"
  assert_output '${{ github.workspace }}/.tools/m
${{ github.workspace }}/.tools/m/bin'
}

@test "OpenSSL 1.1 comes from ./setup/libssl11.sh, before m installs the server" {
  local ssl install
  ssl=$(line_of 'OpenSSL 1.1 (.tools/lib) for the ubuntu2004 builds of MongoDB ${{ matrix.mongodb }}')
  install=$(line_of 'Install MongoDB ${{ matrix.mongodb }} with m')
  [[ -n "$ssl" && -n "$install" ]]
  ((ssl < install))
  run -0 step_run 'OpenSSL 1.1 (.tools/lib) for the ubuntu2004 builds of MongoDB ${{ matrix.mongodb }}'
  assert_output './setup/libssl11.sh --yes'
}

# guard WORKSPACE: the guard step run as GitHub runs it (bash -e) in WORKSPACE,
# with an image's mongodump first on PATH.
guard() {
  local script image="${BATS_TEST_TMPDIR}/image-bin"
  mkdir -p "$image"
  printf '#!/bin/sh\necho "mongodump version: 100.10.0"\n' >"${image}/mongodump"
  chmod +x "${image}/mongodump"
  script=$(step_run "The Database Tools are the checkout's build")
  [[ -n "$script" ]]
  (cd "$1" && GITHUB_WORKSPACE=$1 GITHUB_PATH="${BATS_TEST_TMPDIR}/github_path" PATH="${image}:${PATH}" bash -e -c "$script")
}

# A scratch checkout: setup/env.sh, and .tools/bin with the tools named.
scratch_checkout() {
  local ws="${BATS_TEST_TMPDIR}/ws" tool
  mkdir -p "${ws}/setup" "${ws}/.tools/bin"
  cp "${DBA_LAB_ROOT}/setup/env.sh" "${ws}/setup/"
  for tool in "$@"; do
    printf '#!/bin/sh\necho "%s version: 100.12.2+dba-lab"\n' "$tool" >"${ws}/.tools/bin/${tool}"
    chmod +x "${ws}/.tools/bin/${tool}"
  done
  printf '%s' "$ws"
}

@test "the guard step fails when mongodump is only the image's" {
  local ws
  ws=$(scratch_checkout mongorestore mongoexport bsondump)
  run guard "$ws"
  assert_failure
  assert_output --partial "::error::mongodump resolves to ${BATS_TEST_TMPDIR}/image-bin/mongodump, not the checkout's .tools/bin"
}

@test "the guard step passes on the checkout's build and puts .tools/bin on the job's PATH" {
  local ws
  ws=$(scratch_checkout mongodump mongorestore mongoexport bsondump)
  run -0 guard "$ws"
  run -0 cat "${BATS_TEST_TMPDIR}/github_path"
  assert_output "${ws}/.tools/bin"
}
