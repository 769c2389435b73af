// The report page's style sheet: light and dark (prefers-color-scheme), a phone's width, and print
// (always light, no controls, charts kept whole). System fonts only: the page loads nothing.

export const REPORT_STYLE = `:root{color-scheme:light dark;--fg:#1d2125;--muted:#5b6570;--bg:#fff;--panel:#f4f6f8;--line:#d6dbe0;--bar:#2f6fb0;--accent:#1a5c99;--bad:#b3261e;--warn:#8a5a00;--good:#1e7a3c}
@media (prefers-color-scheme:dark){:root{--fg:#e3e6ea;--muted:#a4adb7;--bg:#15181b;--panel:#1f2428;--line:#3a4249;--bar:#6aa7e6;--accent:#8cc2f5;--bad:#ff8a80;--warn:#f3c26b;--good:#7dd99a}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:76rem;padding:1rem 1.25rem 4rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.6rem;margin:.5rem 0 .25rem}h2{font-size:1.3rem;margin:2.5rem 0 .75rem;padding-top:.5rem;border-top:1px solid var(--line)}h3{font-size:1.05rem;margin:1.25rem 0 .4rem}
a{color:var(--accent)}code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.muted,caption{color:var(--muted)}caption{text-align:left;padding:.25rem 0}
nav.toc ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.5rem 0;list-style:none}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.6rem;margin:0 0 .75rem}
.figures div{background:var(--panel);border:1px solid var(--line);border-radius:.4rem;padding:.5rem .75rem}
.figures dt{font-size:.85rem;color:var(--muted)}.figures dd{margin:0;font-size:1.25rem;font-weight:600;overflow-wrap:anywhere}.figures dd small{display:block;font-size:.8rem;font-weight:400;color:var(--muted)}
.bad{color:var(--bad)}.warn{color:var(--warn)}.good{color:var(--good)}
.callout{border-left:4px solid var(--warn);background:var(--panel);padding:.4rem .75rem;margin:.5rem 0}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.92rem;margin:.75rem 0}table.tree,#url-table{width:100%}.pair{display:flex;flex-wrap:wrap;gap:0 2.5rem}.pair table{min-width:16rem}svg.chart.bars{max-width:52rem}th,td{padding:.3rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--panel);white-space:nowrap}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.tree th[scope=row]{min-width:14rem}.tree td{white-space:nowrap}.tree .depth1{padding-left:1.6rem}.tree .depth2{padding-left:3rem}.tree th span{color:var(--muted)}
#url-table{min-width:52rem}#url-table td{white-space:nowrap}th.loc{font-weight:400;min-width:16rem;max-width:40rem;overflow-wrap:anywhere}th.loc a{display:block;max-height:6em;overflow-y:auto}
.problem{border:1px solid var(--line);border-left:4px solid var(--warn);border-radius:.4rem;padding:.25rem 1rem .5rem;margin:.75rem 0}
.problem.error{border-left-color:var(--bad)}.problem h3 code{font-size:.95rem}.problem ol{padding-left:1.5rem;margin:.25rem 0}.problem li{overflow-wrap:anywhere}
svg.chart{display:block;width:100%;font-size:13px;overflow:visible}svg.chart text{fill:var(--fg)}svg.chart .bar{fill:var(--bar)}svg.chart .future{fill:var(--bad)}svg.chart .axis{stroke:var(--line)}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--accent)}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:.5rem 0}
.controls input,.controls select,.pager select{font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:.3rem;background:var(--bg);color:var(--fg)}.controls input{width:min(30rem,100%)}
#url-status{margin:0}
#url-table thead th{padding:0}#url-table thead button{font:inherit;font-weight:600;color:inherit;background:none;border:0;padding:.35rem .6rem;width:100%;text-align:left;cursor:pointer}#url-table thead th.n button{text-align:right}
#url-table th[aria-sort=ascending] button::after{content:" ▲"}#url-table th[aria-sort=descending] button::after{content:" ▼"}
button,select{font:inherit}.pager{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:.5rem 0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
@media (max-width:40rem){body{padding:.5rem .75rem 3rem;font-size:14px}h1{font-size:1.3rem}.figures{grid-template-columns:repeat(2,1fr)}th,td{padding:.25rem .4rem}}
@media print{:root{--fg:#000;--muted:#444;--bg:#fff;--panel:#f2f2f2;--line:#bbb;--bar:#555;--accent:#000}body{max-width:none;padding:0}nav.toc,.controls,.pager,#url-csv{display:none}h2{break-after:avoid}.problem,svg.chart,.figures div,tr{break-inside:avoid}a{text-decoration:none}}
`;
