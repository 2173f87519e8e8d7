// pb::set_parameter: change one server parameter (recorded for the restore),
// or, with restore=1, put back the value saved before the run.
(() => {
  const { name, value, json, restore } = stage.params;
  if (restore) {
    const old = JSON.parse(String(json));
    db.getSiblingDB('admin').runCommand({ setParameter: 1, [name]: old });
    stage.log(`${name} restored to ${JSON.stringify(old)}`);
  } else {
    const old = stage.setParameter(name, value);
    stage.log(`${name}: ${JSON.stringify(old)} -> ${JSON.stringify(value)}`);
  }
})();
