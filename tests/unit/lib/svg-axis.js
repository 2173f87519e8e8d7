'use strict';
// The text of one axis' tick labels in an SVG drawn by Vega: 'bottom' is the
// x axis, 'left' the y axis (the first of its kind, for faceted charts).

function axisLabels(svg, orient) {
  const axes = svg.split('aria-roledescription="axis"').slice(1);
  const axis = axes.find((a) => a.includes(`aria-label="${orient === 'bottom' ? 'X' : 'Y'}-axis`));
  if (!axis) return [];
  const labels = axis.slice(axis.indexOf('role-axis-label'), axis.indexOf('role-axis-title'));
  return [...labels.matchAll(/>([^<]*)<\/text>/g)].map((m) => m[1]);
}

module.exports = { axisLabels };
