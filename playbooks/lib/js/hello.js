// dbaLabHello(db): the server's hello answer, from isMaster where hello is
// missing (hello arrived in 4.4.2 and 4.2.10: 4.4.0/4.4.1 answer code 59,
// CommandNotFound). Loaded by lib/js/stage.js (stage.hello()) and by the
// bash probes (pb::hello, pb::primary_port, the --uri preflight).
(() => {
  const COMMAND_NOT_FOUND = 59;
  const notFound = (r) => r && r.ok !== 1 && Number(r.code) === COMMAND_NOT_FOUND;
  globalThis.dbaLabHello = (target) => {
    const admin = target.getSiblingDB('admin');
    let r;
    try {
      r = admin.runCommand({ hello: 1 });
    } catch (err) {
      if (Number(err.code) !== COMMAND_NOT_FOUND) throw err;
      r = { ok: 0, code: COMMAND_NOT_FOUND };
    }
    if (!notFound(r)) return r;
    const legacy = admin.runCommand({ isMaster: 1 });
    // Same meaning, hello's name (isMaster answers `ismaster`).
    return { ...legacy, isWritablePrimary: legacy.ismaster };
  };
})();
