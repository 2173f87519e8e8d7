// array-push-oplog analyze: from the curves run.js measured, how the bytes
// per update grow with the array (stats.growth: flat, linear, irregular) and
// what one device-hour costs per pattern against the per-second fix.
// Measurements and tables only: checker.js decides.
(() => {
  const { model } = require(require('path').resolve(__dirname, 'common.js'));
  const saved = stage.db.getCollection('summary').findOne({ _id: 'curves' });
  if (!saved) throw new Error('measure.js: no curves in the summary collection (did run.js finish?)');
  const curves = saved.curves;
  const fix = saved.fix;

  stage.table('growth', 'How the bytes per update grow with the array (stats.growth)',
    ['pattern', 'kind', 'slope_bytes_per_element', 'r2', 'bytes_at_shortest', 'bytes_at_longest']);
  for (const [name, points] of Object.entries(curves)) {
    const g = model.classify(points);
    stage.row('growth', { pattern: name, kind: g.kind, slope_bytes_per_element: Number(g.slope.toFixed(2)), r2: Number(g.r2.toFixed(4)),
      bytes_at_shortest: points[0].bytes, bytes_at_longest: points[points.length - 1].bytes });
    stage.measure(`kind.${name}`, g.kind);
  }
  const hours = model.hourTable(curves, fix);
  stage.table('hourly', 'One device-hour (3600 readings) per pattern, and the ratio to the per-second fix',
    ['pattern', 'kind', 'hour_bytes', 'per_reading', 'vs_fix']);
  for (const r of hours.rows) {
    stage.row('hourly', { pattern: r.pattern, kind: r.kind, hour_bytes: r.hourBytes, per_reading: r.perReading, vs_fix: r.vsFix });
    stage.measure(`hourBytes.${r.pattern}`, r.hourBytes, 'B');
  }
  const push = hours.rows.find((r) => r.pattern === 'push');
  if (fix && push) {
    stage.note(`Modern lesson: a plain $push costs ${model.fmtBytes(push.hourBytes)} per device-hour here, ` +
      `${push.vsFix}x the per-second fix (${model.fmtBytes(model.fixHourBytes(fix))}): ` +
      `${push.vsFix <= 1 ? 'the fix no longer saves anything for plain appends' : 'the fix still saves bytes'}.`);
  }
})();
