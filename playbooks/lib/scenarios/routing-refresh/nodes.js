// routing-refresh: the cluster's mongos and shard members, found from the
// mongos the stage is connected to, and connections to them. load()ed by the
// stage files (not require()d: load() gives these functions mongosh's implicit
// await of shell calls); defines globalThis.routingRefreshNodes only.
(() => {

// Every shard member: [{shard, host}] from listShards ("shard01/h1:p1,h2:p2").
function shardMembers(db) {
  const res = db.getSiblingDB('admin').runCommand({ listShards: 1 });
  const out = [];
  for (const s of res.shards) {
    const hosts = s.host.includes('/') ? s.host.split('/')[1] : s.host;
    for (const h of hosts.split(',')) out.push({ shard: s._id, host: h });
  }
  return out;
}

// The shards with their replica-set connection strings.
function shards(db) {
  const res = db.getSiblingDB('admin').runCommand({ listShards: 1 });
  return res.shards.map((s) => {
    const [set, hosts] = s.host.includes('/') ? s.host.split('/') : [null, s.host];
    return { id: s._id, uri: `mongodb://${hosts}/${set ? `?replicaSet=${set}` : '?directConnection=true'}` };
  });
}

// mongosh throws on a failed command; where a failure is an answer (unknown
// parameter, command missing in this version) it is turned back into a reply.
function command(database, doc) {
  try {
    // Assigned, not returned: only an awaited call's failure lands in catch.
    const reply = database.runCommand(doc);
    return reply;
  } catch (e) {
    return { ok: 0, codeName: e.codeName, errmsg: e.message };
  }
}

function direct(host) {
  return new Mongo(`mongodb://${host}/?directConnection=true`);
}

function connect(uri) {
  return new Mongo(uri);
}

globalThis.routingRefreshNodes = { shardMembers, shards, command, direct, connect };
})();
