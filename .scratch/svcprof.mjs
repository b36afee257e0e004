// node svcprof.mjs <project> [prof]  — seed, load GET by id and list for 5 s each, optional cpu profile
import { spawn } from 'node:child_process';
import autocannon from '/work/main/node_modules/autocannon/autocannon.js';
const project = process.argv[2]; const prof = process.argv[3];
const args = prof ? ['--cpu-prof', '--cpu-prof-dir', prof, process.env.MAIN ?? 'dist/main.js'] : [process.env.MAIN ?? 'dist/main.js'];
const child = spawn(process.execPath, args, { cwd: project, env: { ...process.env, PORT: process.env.FIXED ?? '0', HOST: '127.0.0.1', API_TOKENS: 'bench-token:catalog:write', RATE_LIMIT: '1000000000', CURSOR_SECRET: 'bench', STORE: 'memory' }, stdio: ['ignore', 'pipe', 'inherit'] });
const origin = process.env.FIXED ? (child.stdout.resume(), await new Promise((r) => setTimeout(r, 1500)), `http://127.0.0.1:${process.env.FIXED}`) : await new Promise((res) => { let out = ''; const on = (c) => { out += c; const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out); if (m) { child.stdout.off('data', on).resume(); res(m[1]); } }; child.stdout.on('data', on); });
const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const post = async (p, b) => { const r = await fetch(`${origin}/api/v1${p}`, { method: 'POST', headers, body: JSON.stringify(b) }); if (r.status !== 201) throw new Error(await r.text()); return (await r.json()).data; };
const author = await post('/authors', { name: 'Chimamanda Ngozi Adichie', country: 'NG' });
let book; for (let n = 0; n < 40; n++) book = await post(`/authors/${author.id}/books`, { title: `Book ${n}`, isbn: `97800000000${String(n).padStart(2, '0')}`, genre: ['fiction', 'poetry'][n % 2], pages: 100 + n, in_print: true });
const paths = { get: `/api/v1/authors/${author.id}/books/${book.id}`, list: `/api/v1/authors/${author.id}/books?genre=fiction&sort=-pages&limit=20` };
const only = process.env.ONLY;
for (const [k, p] of Object.entries(paths)) { if (only && only !== k) continue; const r = await autocannon({ url: origin + p, connections: 10, duration: Number(process.env.DUR ?? 5), headers }); console.log(k, Math.round(r.requests.average), 'req/s', r.non2xx, 'non2xx'); }
child.kill('SIGINT'); await new Promise((r) => child.once('exit', r));
