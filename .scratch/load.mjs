// node load.mjs <origin> [get|list] [secs] — seeds and loads a running bookshop service
import autocannon from '/work/main/node_modules/autocannon/autocannon.js';
const origin = process.argv[2]; const which = process.argv[3] ?? 'get'; const dur = Number(process.argv[4] ?? 4);
const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const post = async (p, b) => { const r = await fetch(`${origin}/api/v1${p}`, { method: 'POST', headers, body: JSON.stringify(b) }); if (r.status !== 201) throw new Error(await r.text()); return (await r.json()).data; };
const author = await post('/authors', { name: 'Chimamanda Ngozi Adichie', country: 'NG' });
let book; for (let n = 0; n < 40; n++) book = await post(`/authors/${author.id}/books`, { title: `Book ${n}`, isbn: `97800000000${String(n).padStart(2, '0')}`, genre: ['fiction', 'poetry'][n % 2], pages: 100 + n, in_print: true });
const paths = { get: `/api/v1/authors/${author.id}/books/${book.id}`, list: `/api/v1/authors/${author.id}/books?genre=fiction&sort=-pages&limit=20` };
for (const k of which.split(',')) { const c0 = process.cpuUsage(); const r = await autocannon({ url: origin + paths[k], connections: 10, duration: dur, headers }); const c = process.cpuUsage(c0); console.log(k, Math.round(r.requests.average), 'req/s', r.non2xx, 'non2xx', 'client cpu', ((c.user + c.system) / 1e6 / dur).toFixed(2)); }
