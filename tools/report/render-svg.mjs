// Renders a hroof report's Vega-Lite spec to a standalone SVG (no browser):
//   node render-svg.mjs NODE_MODULES_DIR SPEC.json  > out.svg
// NODE_MODULES_DIR holds vega and vega-lite (scripts/setup.sh installs them
// into build/report-js/node_modules).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, specPath] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(dir, p)).href);
const vega = await load('vega/build/vega.module.js');
const vl = await load('vega-lite/build/index.js');
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
process.stdout.write(await view.toSVG());
view.finalize();
