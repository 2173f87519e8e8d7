#!/usr/bin/env node
'use strict';
// Builds this package's mongosh snippet index: the one a release publishes
// (mongosh installs the package from the npm registry by name and version),
// and the one registered with the current user's mongosh so that
// `snippet install dba-lab` works from a checkout with no network.
//
//   node setup/snippet-index.js release [--out FILE]   (the index a release attaches)
//   node setup/snippet-index.js build [--install-spec SPEC] [--out FILE]
//   node setup/snippet-index.js register [--install-spec SPEC]
//                                             (what ./setup/install.sh --snippet-index runs;
//                                             default SPEC: file:<this checkout>)
//   node setup/snippet-index.js unregister
//   node setup/snippet-index.js decode FILE   (prints an index file as JSON; regular
//                                             expressions as their source text)
//
// An index is brotli-compressed BSON {indexFileVersion: 1, metadata: {homepage},
// index: [{name, snippetName, version, description, license, readme, installSpec,
// errorMatchers: [{matches: [RegExp], message}]}]}
// (the schema in @mongosh/snippet-manager). Without installSpec mongosh runs
// `npm install name@version`. mongosh cannot read file:// index URLs but reads
// data: URLs, so the registered index travels inside its URL.

const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');
const { BSON } = require('bson');

const ROOT = path.resolve(__dirname, '..');
const DATA_PREFIX = 'data:application/octet-stream,';

function fail(message) {
  process.stderr.write(`snippet-index: ${message}\n`);
  process.exit(1);
}

function readPackage() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const field of ['name', 'snippetName', 'version', 'description', 'license', 'homepage']) {
    if (!pkg[field]) fail(`package.json has no "${field}"`);
  }
  return pkg;
}

function buildIndex(installSpec) {
  const pkg = readPackage();
  const entry = {
    name: pkg.name,
    snippetName: pkg.snippetName,
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    readme: fs.readFileSync(path.join(ROOT, 'snippets', 'README.md'), 'utf8'),
  };
  if (installSpec) entry.installSpec = installSpec;
  // mongosh appends a matcher's message to any error whose message one of its
  // regular expressions matches (snippet-manager's transformError), so a
  // shell without the package says how to get a name it does not know.
  if (pkg.errorMatchers) {
    entry.errorMatchers = pkg.errorMatchers.map(({ matches, message }) => ({
      matches: matches.map((source) => new RegExp(source)),
      message,
    }));
  }
  // The homepage also marks the index entries this script wrote, so
  // registering again replaces them instead of piling up copies.
  return { indexFileVersion: 1, metadata: { homepage: pkg.homepage }, index: [entry] };
}

function pack(doc) {
  return zlib.brotliCompressSync(BSON.serialize(doc));
}

function unpack(buffer) {
  return BSON.deserialize(zlib.brotliDecompressSync(buffer));
}

// Every byte percent-encoded: valid in any URL parser, no base64 (mongosh's
// fetch does not take ;base64 data URLs).
function toDataUrl(buffer) {
  let out = DATA_PREFIX;
  for (const byte of buffer) out += `%${byte.toString(16).padStart(2, '0')}`;
  return out;
}

// Bytes, not text: decodeURIComponent would insist on UTF-8.
function fromDataUrl(url) {
  const body = url.slice(url.indexOf(',') + 1);
  const bytes = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '%') {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(body.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

function isOurs(url) {
  if (!url.startsWith('data:')) return false;
  try {
    return unpack(fromDataUrl(url)).metadata.homepage === readPackage().homepage;
  } catch {
    return false;
  }
}

function mongoshBin() {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'mongosh');
  if (!fs.existsSync(bin)) fail('mongosh is not installed: run ./setup/install.sh first');
  return bin;
}

// mongosh owns its config file's format and location: read and write the
// setting through mongosh itself.
function mongoshConfig(script) {
  return execFileSync(mongoshBin(), ['--nodb', '--quiet', '--norc', '--eval', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

function getSourceUrls() {
  return mongoshConfig("print(config.get('snippetIndexSourceURLs'))").split(';').filter(Boolean);
}

function setSourceUrls(urls) {
  mongoshConfig(`config.set('snippetIndexSourceURLs', ${JSON.stringify(urls.join(';'))})`);
}

// Where mongosh keeps installed snippets and its index cache (cli-repl's
// shell home directory: %APPDATA%\mongodb\mongosh on Windows, else ~/.mongodb/mongosh).
function snippetsDir() {
  const base = process.platform === 'win32'
    ? path.join(process.env.APPDATA || os.homedir(), 'mongodb', 'mongosh')
    : path.join(os.homedir(), '.mongodb', 'mongosh');
  return path.join(base, 'snippets');
}

// mongosh reads its index cache instead of the network while the cache's
// list of source URLs equals the configured one, and refreshes it in the
// background after an hour. Writing the cache with our index in it is what
// makes `snippet install dba-lab` work offline; the other indexes keep what
// was cached for them (or an empty list until `snippet refresh` online).
function writeCache(urls, ourUrl, ourIndex) {
  const dir = snippetsDir();
  const cachePath = path.join(dir, 'index.bson.br');
  let cached = [];
  try {
    cached = unpack(fs.readFileSync(cachePath)).repoData || [];
  } catch {
    cached = [];
  }
  const repoData = urls.map((url) => {
    if (url === ourUrl) return { ...ourIndex, sourceURL: url };
    const previous = cached.find((repo) => repo.sourceURL === url);
    return previous || { indexFileVersion: 1, metadata: { homepage: url }, index: [], sourceURL: url };
  });
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${cachePath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, pack({ repoData }));
  fs.renameSync(tmp, cachePath);
  return repoData.filter((repo) => repo.sourceURL !== ourUrl && repo.index.length === 0).map((r) => r.sourceURL);
}

function register(installSpec) {
  const index = buildIndex(installSpec);
  const ourUrl = toDataUrl(pack(index));
  const others = getSourceUrls().filter((url) => !isOurs(url));
  const urls = [...others, ourUrl];
  setSourceUrls(urls);
  const empty = writeCache(urls, ourUrl, index);
  process.stdout.write(`registered the dba-lab snippet index (install from ${installSpec.replace(/^file:/, '')})\n`);
  process.stdout.write(`kept ${others.length} other index URL(s): ${others.join(', ') || 'none'}\n`);
  if (empty.length) {
    process.stdout.write(`not cached yet, fetched when online by 'snippet refresh' (or within the hour): ${empty.join(', ')}\n`);
  }
  process.stdout.write("in mongosh: snippet install dba-lab\n");
}

function unregister() {
  const urls = getSourceUrls();
  const kept = urls.filter((url) => !isOurs(url));
  setSourceUrls(kept);
  process.stdout.write(`removed ${urls.length - kept.length} dba-lab index URL(s); ${kept.length} kept\n`);
}

function option(args, name) {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  if (i + 1 >= args.length) fail(`${name} needs a value`);
  return args[i + 1];
}

function writeIndex(out, index) {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, pack(index));
  process.stdout.write(`${out}\n`);
}

function main(args) {
  const defaultOut = path.join(ROOT, '.tools', 'snippet-index', 'index.bson.br');
  switch (args[0]) {
    case 'release':
      if (args.includes('--install-spec')) fail('a release index names no --install-spec: mongosh installs the package from npm');
      writeIndex(option(args, '--out') || defaultOut, buildIndex());
      break;
    case 'build':
      writeIndex(option(args, '--out') || defaultOut, buildIndex(option(args, '--install-spec')));
      break;
    case 'register': register(option(args, '--install-spec') || `file:${ROOT}`); break;
    case 'unregister': unregister(); break;
    case 'decode': {
      if (!args[1]) fail('decode needs a file');
      process.stdout.write(`${JSON.stringify(unpack(fs.readFileSync(args[1])),
        (_key, value) => (value instanceof RegExp ? value.source : value), 2)}\n`);
      break;
    }
    default:
      process.stderr.write('usage: node setup/snippet-index.js release|build|register|unregister|decode (see the header of this file)\n');
      process.exit(2);
  }
}

main(process.argv.slice(2));
