// Builds web/dist (app.js bundled and minified by esbuild, index.html, style.css)
// and reports the gzipped size against the 150 KiB budget of issue 12. With
// --tests, bundles test/*.test.ts for node's test runner into .test-out/.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = outArg >= 0 ? args[outArg + 1] : join(here, 'dist');
const kBudget = 150 * 1024;

if (args.includes('--tests')) {
  const testOut = args.indexOf('--test-out');
  const dir = testOut >= 0 ? args[testOut + 1] : join(here, '.test-out');
  rmSync(dir, { recursive: true, force: true });
  const entries = readdirSync(join(here, 'test')).filter((f) => f.endsWith('.test.ts')).map((f) => join(here, 'test', f));
  await build({ entryPoints: entries, bundle: true, format: 'esm', platform: 'node', outdir: dir, outExtension: { '.js': '.mjs' }, logLevel: 'warning' });
  process.exit(0);
}

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'static', 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'static', 'style.css'), join(out, 'style.css'));

let gz = 0;
for (const f of ['app.js', 'index.html', 'style.css']) gz += gzipSync(readFileSync(join(out, f))).length;
writeFileSync(join(out, 'size.json'), JSON.stringify({ gzip_bytes: gz, budget_bytes: kBudget }) + '\n');
console.log(`web: dist built, ${(gz / 1024).toFixed(1)} KiB gzipped (budget ${kBudget / 1024} KiB)`);
if (gz > kBudget) {
  console.error(`web: the bundle is over budget: ${gz} > ${kBudget} bytes gzipped`);
  process.exit(1);
}
